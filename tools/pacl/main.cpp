// The `pacl` command line: build and run a CANN program against this pacl (`pacl run`), run one op
// from a descriptor (`pacl op`), list the implemented ops (`pacl ops`), describe the installation (`pacl info`) and print the compile and
// link flags (`pacl --cflags`, `pacl --libs`). See docs/tools.md.
#include <CLI/CLI.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#ifdef PACL_CLI_OP
#include "op_command.h"
#endif
#include "pacl/info.h"
#include "pacl_paths.h"

namespace {

// ---- output -------------------------------------------------------------------------------------

bool color() {
  static const bool c = isatty(STDERR_FILENO) && !std::getenv("NO_COLOR");
  return c;
}
void error(const std::string& msg) {
  std::fprintf(stderr, "%spacl: error:%s %s\n", color() ? "\033[1;31m" : "", color() ? "\033[0m" : "", msg.c_str());
}
void note(const std::string& msg) {
  std::fprintf(stderr, "%spacl:%s %s\n", color() ? "\033[1;36m" : "", color() ? "\033[0m" : "", msg.c_str());
}

// ---- where pacl is ------------------------------------------------------------------------------

struct Layout {
  std::string include, libdir;
};

bool exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::string self_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = '\0';
  std::string p(buf);
  return p.substr(0, p.find_last_of('/'));
}

// An installed pacl is <prefix>/bin/pacl with <prefix>/include and <prefix>/lib64 (CANN's layout);
// a pacl run from its build tree uses the source headers and the build's libraries.
Layout layout() {
  const std::string prefix = self_dir() + "/..";
  if (exists(prefix + "/include/acl/acl.h") && exists(prefix + "/lib64/libascendcl.so"))
    return {prefix + "/include", prefix + "/lib64"};
  return {PACL_SOURCE_INCLUDE_DIR, PACL_BUILD_LIB_DIR};
}

#ifdef PACL_CLI_OP
// tools/pacl/reference.py: installed as <prefix>/share/pacl/reference.py, else from the source tree.
std::string reference_script() {
  const std::string installed = self_dir() + "/../share/pacl/reference.py";
  return exists(installed) ? installed : std::string(PACL_SOURCE_DIR) + "/tools/pacl/reference.py";
}
#endif

std::string cflags(const Layout& l) {
  return "-I" + l.include + " -I" + l.include + "/aclnn -I" + l.include + "/aclnnop";
}
std::string libs(const Layout& l) {
  return "-L" + l.libdir + " -Wl,-rpath," + l.libdir + " -lopapi_math -lopapi_nn -lascendcl -lnnopbase -lpthread";
}

std::string quote(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

// ---- pacl run -----------------------------------------------------------------------------------

// Explains a failed build in terms of pacl: missing op headers and op symbols name the ops.
void explain_build_failure(const std::string& out) {
  std::set<std::string> explained;
  static const std::regex header(R"((aclnnop/)?(aclnn_[A-Za-z0-9_]+\.h): No such file)");
  static const std::regex symbol(R"(undefined reference to `(aclnn[A-Za-z0-9_]+?)(GetWorkspaceSize)?')");
  for (std::sregex_iterator it(out.begin(), out.end(), header), end; it != end; ++it) {
    const std::string h = (*it)[2];
    if (explained.insert(h).second)
      error("the program includes aclnnop/" + h + ", which pacl does not provide: the op it declares is not "
            "implemented by pacl yet (`pacl ops` lists the implemented ops)");
  }
  for (std::sregex_iterator it(out.begin(), out.end(), symbol), end; it != end; ++it) {
    const std::string op = (*it)[1];
    if (explained.insert(op).second)
      error(op + " is not implemented by pacl yet (`pacl ops` lists the implemented ops)");
  }
  if (explained.empty()) std::fputs(out.c_str(), stderr);
}

int run_command(const std::vector<std::string>& sources, const std::vector<std::string>& args, int check_level,
                const std::string& trace, const std::string& std_flag, const std::string& output,
                const std::string& extra, bool verbose) {
  const Layout l = layout();
  for (const std::string& s : sources)
    if (!exists(s)) {
      error("source file '" + s + "' does not exist");
      return 2;
    }
  char tmpl[] = "/tmp/pacl-run-XXXXXX";
  const char* dir = mkdtemp(tmpl);
  if (!dir) {
    error(std::string("cannot create a temporary directory: ") + std::strerror(errno));
    return 1;
  }
  const std::string bin = output.empty() ? std::string(dir) + "/program" : output;
  const char* cxx_env = std::getenv("CXX");
  std::string cmd = std::string(cxx_env && *cxx_env ? cxx_env : "g++") + " -std=" + std_flag + " -O2 -g";
  for (const std::string& s : sources) cmd += " " + quote(s);
  cmd += " -o " + quote(bin) + " " + cflags(l) + " " + extra + " " + libs(l);
  const std::string log = std::string(dir) + "/build.log";
  if (verbose) note(cmd);
  if (isatty(STDERR_FILENO)) note("compiling " + std::to_string(sources.size()) + " source file(s)...");
  const int rc = std::system((cmd + " > " + quote(log) + " 2>&1").c_str());
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  if (rc != 0) {
    explain_build_failure(ss.str());
    error("building the program failed");
    std::system(("rm -rf " + quote(dir)).c_str());
    return 1;
  }
  if (verbose && !ss.str().empty()) std::fputs(ss.str().c_str(), stderr);
  if (check_level > 0) setenv("PACL_CHECK", std::to_string(check_level).c_str(), 1);
  if (!trace.empty()) setenv("PACL_TRACE", trace.c_str(), 1);
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(bin.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    std::perror("pacl: exec");
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (output.empty()) std::system(("rm -rf " + quote(dir)).c_str());
  if (!trace.empty()) note("trace written to " + trace + " (open it in https://ui.perfetto.dev)");
  if (WIFSIGNALED(status)) {
    error("the program was killed by signal " + std::to_string(WTERMSIG(status)));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

// ---- pacl ops -----------------------------------------------------------------------------------

int ops_command(bool markdown, const std::string& filter) {
  std::map<std::string, std::string> header;
  std::vector<std::string> order;
  for (int i = 0; i < paclOpCount(); ++i) {
    order.push_back(paclOpName(i));
    header[paclOpName(i)] = paclOpHeader(i);
  }
  // Fold in-place forms into their op: InplaceAdd goes with Add.
  std::map<std::string, std::vector<std::string>> inplace;
  std::vector<std::string> ops;
  for (const std::string& n : order) {
    if (n.rfind("Inplace", 0) == 0 && header.count(n.substr(7))) inplace[n.substr(7)].push_back(n);
    else ops.push_back(n);
  }
  std::regex re;
  try {
    re = std::regex(filter.empty() ? ".*" : filter, std::regex::icase);
  } catch (const std::regex_error& e) {
    error("--filter '" + filter + "' is not a regular expression: " + e.what());
    return 2;
  }
  int shown = 0;
  if (markdown) std::printf("| op | in-place form | header |\n|---|---|---|\n");
  for (const std::string& n : ops) {
    if (!std::regex_search(n, re)) continue;
    ++shown;
    std::string ip;
    for (const std::string& v : inplace[n]) ip += (ip.empty() ? "" : ", ") + ("aclnn" + v);
    if (markdown)
      std::printf("| aclnn%s | %s | %s |\n", n.c_str(), ip.empty() ? "" : ip.c_str(), header[n].c_str());
    else
      std::printf("aclnn%-34s %-32s %s\n", n.c_str(), header[n].c_str(), ip.c_str());
  }
  if (!markdown) std::printf("\n%d ops (%d entry points with the in-place forms)\n", shown, paclOpCount());
  return 0;
}

// ---- pacl info ----------------------------------------------------------------------------------

std::string cpu_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model;
  std::set<std::string> flags;
  while (std::getline(in, line)) {
    if (model.empty() && line.rfind("model name", 0) == 0) model = line.substr(line.find(':') + 2);
    if (flags.empty() && line.rfind("flags", 0) == 0) {
      std::istringstream fs(line.substr(line.find(':') + 1));
      std::string f;
      while (fs >> f) flags.insert(f);
    }
  }
  std::string r = model.empty() ? std::string("unknown CPU") : model;
  r += "; features:";
  for (const char* f : {"sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512_bf16", "amx_tile"})
    if (flags.count(f)) r += std::string(" ") + f;
  return r;
}

int info_command() {
  const Layout l = layout();
  std::printf("pacl %s\n", paclVersion());
  std::printf("headers:   %s\nlibraries: %s\n", l.include.c_str(), l.libdir.c_str());
  if (aclInit(nullptr) != ACL_SUCCESS) {
    error(std::string("aclInit failed: ") + aclGetRecentErrMsg());
    return 1;
  }
  uint32_t devices = 0;
  aclrtGetDeviceCount(&devices);
  std::printf("devices:   %u virtual devices (PACL_DEVICE_COUNT)\n", devices);
  if (devices > 0 && aclrtSetDevice(0) == ACL_SUCCESS) {
    size_t free = 0, total = 0;
    aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
    std::printf("memory:    %.1f GiB per device (PACL_DEVICE_MEMORY), %.1f GiB free on device 0\n",
                static_cast<double>(total) / (1 << 30), static_cast<double>(free) / (1 << 30));
    const char* soc = aclrtGetSocName();
    std::printf("SoC name:  %s (PACL_SOC_NAME)\n", soc ? soc : "?");
    aclrtResetDevice(0);
  }
  aclFinalize();
  std::printf("threads:   %d intra-op threads (PACL_NUM_THREADS)\n", paclThreadCount());
  std::printf("CPU:       %s\n", cpu_flags().c_str());
  std::printf("ops:       %d entry points (`pacl ops`)\n", paclOpCount());
  std::printf("build:\n");
  std::istringstream bi(paclBuildInfo());
  for (std::string line; std::getline(bi, line);) std::printf("  %s\n", line.c_str());
  std::printf("settings in force:\n");
  bool any = false;
  for (const char* v : {"PACL_DEVICE_COUNT", "PACL_DEVICE_MEMORY", "PACL_NUM_THREADS", "PACL_SOC_NAME", "PACL_CHECK",
                        "PACL_CHECK_FATAL", "PACL_CHECK_LOG", "PACL_TRACE"})
    if (const char* val = std::getenv(v)) {
      std::printf("  %s=%s\n", v, val);
      any = true;
    }
  if (!any) std::printf("  (defaults: no PACL_* variable set)\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pacl: the CANN aclnn API on the CPU — build and run CANN programs, list ops, inspect"};
  app.require_subcommand(0, 1);
  bool show_cflags = false, show_libs = false, show_version = false;
  app.add_flag("--cflags", show_cflags, "print the compiler flags for CANN programs (include paths)");
  app.add_flag("--libs", show_libs, "print the linker flags for CANN programs (CANN's library names)");
  app.add_flag("--version", show_version, "print pacl's version");

  CLI::App* run = app.add_subcommand(
      "run", "compile a CANN program with CANN's include paths and libraries, then run it; arguments for the "
             "program follow --");
  std::vector<std::string> sources;
  int check_level = 0;
  std::string trace, std_flag = "c++17", output, extra;
  bool verbose = false;
  run->add_option("sources", sources, "the program's C++ source files")->required()->check(CLI::ExistingFile);
  bool check = false;
  run->add_flag("--check", check, "run under the contract checker at its strictest level (docs/checker.md)");
  run->add_option("--check-level", check_level, "run under the contract checker at this level")->check(CLI::Range(1, 2));
  run->add_option("--trace", trace, "write a Chrome/Perfetto trace of the run to this file");
  run->add_option("--std", std_flag, "C++ standard to compile with")->capture_default_str();
  run->add_option("-o,--output", output, "keep the built program at this path");
  run->add_option("--flags", extra, "extra compiler/linker flags, e.g. \"-DDEBUG -lm\"");
  run->add_flag("-v,--verbose", verbose, "print the compile command and the compiler's warnings");

  CLI::App* ops = app.add_subcommand("ops", "list the aclnn ops this pacl implements");
  bool markdown = false;
  std::string filter;
  ops->add_flag("--markdown", markdown, "print the list as a Markdown table (the docs' coverage list)");
  ops->add_option("--filter", filter, "only ops whose name matches this regular expression (case-insensitive)");

#ifdef PACL_CLI_OP
  CLI::App* op = app.add_subcommand(
      "op", "run one aclnn op from a one-line descriptor, e.g. \"Add self=float32[2,3] other=float32[3] "
            "alpha=float32(1) out=float32[2,3]\" (docs/tools.md)");
  std::string descriptor;
  paclcli::OpOptions op_opts;
  op->add_option("descriptor", descriptor, "the op and its arguments as name=value (the op tests' repro syntax)")
      ->required();
  op->add_option("--seed", op_opts.seed, "seed of the random inputs")->capture_default_str();
  op->add_option("--fill", op_opts.fill, "input values: random, zeros, ones, arange or a number")->capture_default_str();
  op->add_option("--bench", op_opts.bench, "time this many runs after the first (median, min, GB/s)")
      ->check(CLI::Range(0, 1000000));
  op->add_flag("--verify", op_opts.verify, "compare the outputs with PyTorch (needs python3-torch)");
#endif

  app.add_subcommand("info", "print devices, memory, threads, CPU features, build and settings in force");

  // Everything after "--" belongs to the program of `pacl run`.
  std::vector<std::string> after_dashes;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      for (int j = i + 1; j < argc; ++j) after_dashes.emplace_back(argv[j]);
      argc = i;
      break;
    }
  CLI11_PARSE(app, argc, argv);

  const Layout l = layout();
  if (show_version) std::printf("pacl %s\n", paclVersion());
  if (show_cflags) std::printf("%s\n", cflags(l).c_str());
  if (show_libs) std::printf("%s\n", libs(l).c_str());
  if (run->parsed()) {
    if (check && check_level == 0) check_level = 2;
    return run_command(sources, after_dashes, check_level, trace, std_flag, output, extra, verbose);
  }
  if (ops->parsed()) return ops_command(markdown, filter);
#ifdef PACL_CLI_OP
  if (op->parsed()) {
    op_opts.reference = reference_script();
    return paclcli::OpCommand(descriptor, op_opts);
  }
#endif
  if (app.got_subcommand("info")) return info_command();
  if (!show_cflags && !show_libs && !show_version) {
    std::printf("%s", app.help().c_str());
    return 2;
  }
  return 0;
}
