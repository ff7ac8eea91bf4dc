// `qsolve bench`: for each model x backend x budget, R Solve calls with seeds
// s0 .. s0+R-1 on one channel. Sweep budgets ask every read's energy back
// (aggregated: identical samples come as one event with a count); time
// budgets ask only for the best sample of each run. The target of a model is
// its --target / @X objective, else the best energy any of its points saw.
#include "clients/cli/bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "clients/cli/bench_stats.h"
#include "clients/cli/cli_common.h"
#include "clients/cli/puzzle_input.h"
#include "formats/instance_generators.h"
#include "formats/qubo_formats.h"
#include "google/protobuf/struct.pb.h"
#include "qs/v1/solver_service.grpc.pb.h"

ABSL_FLAG(std::string, models, "",
          "bench: comma-separated models: files (read as --kind, --format, "
          "--sense; an orlib file gives each of its instances), or generated "
          "ones bqp:N[:DENSITY[:SEED]] (Beasley-like QUBO), gset:N[:DENSITY"
          "[:SEED]] (G-set-like graph, weight 1), gsetpm:... (weights +-1); "
          "a suffix @X sets the model's target objective");
ABSL_FLAG(std::string, backends, "cpu-sa", "bench: comma-separated backends");
ABSL_FLAG(std::string, time_budgets, "",
          "bench: comma-separated time budgets in seconds (instead of sweep "
          "budgets); each repeat is one run of that length at --sweeps");
ABSL_FLAG(int, repeats, 5, "bench: solves per point, seeds s0 .. s0+R-1");
ABSL_FLAG(std::string, target, "",
          "bench: target objective of every model; default: the best energy "
          "seen on the model over all its points");
ABSL_FLAG(std::string, csv, "", "bench: write the table as CSV to this file");
ABSL_FLAG(std::string, plot, "",
          "bench: write a plot (TTS99 against the budget, energy histogram "
          "of the best point) to this .svg file (or .png, through chromium)");
ABSL_FLAG(int, bootstrap, 1000, "bench: resamples of the TTS99 interval");
ABSL_DECLARE_FLAG(std::string, addr);
ABSL_DECLARE_FLAG(std::string, input_file);
ABSL_DECLARE_FLAG(std::string, sweeps);
ABSL_DECLARE_FLAG(int64_t, reads);
ABSL_DECLARE_FLAG(int64_t, seed);
ABSL_DECLARE_FLAG(bool, json);

namespace qs::cli {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Reads asked of a timed run: more than it can finish, so the time decides.
constexpr uint32_t kTimedRunReads = 100000;

struct Model {
  std::string name;
  v1::PuzzleSpec spec;
  std::optional<double> target_objective;
};

// What the repeats of one model x backend x budget gave.
struct Point {
  size_t model = 0;
  std::string backend;
  double budget = 0;
  std::vector<EnergyCount> energies;
  double sample_seconds = 0, cpu_seconds = 0;
  uint64_t reads = 0;
  PointStats stats;
  double target = 0;
};

absl::StatusOr<std::vector<double>> NumberList(absl::string_view flag,
                                               absl::string_view text) {
  std::vector<double> values;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    double v;
    if (!absl::SimpleAtod(item, &v) || !(v > 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, ": expected positive numbers, got '", item, "'"));
    }
    values.push_back(v);
  }
  return values;
}

std::string ReadFile(const std::string& path, bool* ok) {
  std::ifstream in(path);
  *ok = static_cast<bool>(in);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// bqp:N[:DENSITY[:SEED]], gset:..., gsetpm:...; nullopt when `entry` is not
// a generator.
absl::StatusOr<std::optional<v1::PuzzleSpec>> Generated(
    absl::string_view entry) {
  std::vector<std::string> parts = absl::StrSplit(entry, ':');
  if (parts[0] != "bqp" && parts[0] != "gset" && parts[0] != "gsetpm")
    return std::nullopt;
  int64_t n = 0;
  uint64_t seed = 1;
  double density = parts[0] == "bqp" ? 0.1 : 0.06;
  if (parts.size() < 2 || parts.size() > 4 || !absl::SimpleAtoi(parts[1], &n) ||
      n < 1 || n > INT32_MAX ||
      (parts.size() > 2 && !absl::SimpleAtod(parts[2], &density)) ||
      (parts.size() > 3 && !absl::SimpleAtoi(parts[3], &seed))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--models: '", entry, "': expected ", parts[0], ":N[:DENSITY[:SEED]]"));
  }
  v1::PuzzleSpec spec;
  if (parts[0] == "bqp") {
    *spec.mutable_qubo() =
        formats::RandomBqp(static_cast<uint32_t>(n), density, seed);
  } else {
    spec = formats::RandomGsetGraph(static_cast<uint32_t>(n), density,
                                    parts[0] == "gsetpm", seed);
  }
  return spec;
}

// The models of one --models entry (an orlib file gives several).
absl::Status AddModels(v1::Solver::Stub& stub, absl::string_view entry,
                       std::vector<Model>& models) {
  std::optional<double> target;
  if (size_t at = entry.rfind('@'); at != absl::string_view::npos) {
    double x;
    if (!absl::SimpleAtod(entry.substr(at + 1), &x)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--models: '", entry, "': the target after @ is not a number"));
    }
    target = x;
    entry = entry.substr(0, at);
  }
  auto generated = Generated(entry);
  if (!generated.ok()) return generated.status();
  if (generated->has_value()) {
    models.push_back({std::string(entry), **generated, target});
    return absl::OkStatus();
  }
  bool ok = false;
  const std::string path(entry);
  const std::string text = ReadFile(path, &ok);
  if (!ok)
    return absl::NotFoundError(absl::StrCat("--models: cannot open ", path));
  const absl::StatusOr<std::string> kind = KindFromFlags(stub);
  if (!kind.ok()) return kind.status();
  if (ReadsLocally(*kind)) {
    auto options = QuboReadOptionsFromFlags();
    if (!options.ok()) return options.status();
    auto format = options->format == formats::QuboFormat::kAuto
                      ? formats::DetectQuboFormat(text)
                      : absl::StatusOr<formats::QuboFormat>(options->format);
    if (!format.ok()) return format.status();
    if (*format == formats::QuboFormat::kOrlib) {
      auto all = formats::ParseOrlibInstances(text, options->sense);
      if (!all.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(path, ": ", all.status().message()));
      for (size_t k = 0; k < all->size(); ++k) {
        Model model{absl::StrCat(path, "#", k + 1), {}, target};
        *model.spec.mutable_qubo() = (*all)[k];
        models.push_back(std::move(model));
      }
      return absl::OkStatus();
    }
  }
  ParseFieldNames names;
  names.text = path;
  auto parsed = ParsePuzzle(stub, *kind, text, "", names);
  if (!parsed.ok()) return parsed.status();
  models.push_back({path, parsed->puzzle(), target});
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Model>> ModelsFromFlags(v1::Solver::Stub& stub) {
  std::string list = absl::GetFlag(FLAGS_models);
  if (list.empty()) list = absl::GetFlag(FLAGS_input_file);
  if (list.empty())
    return absl::InvalidArgumentError("--models: no model given");
  std::optional<double> common;
  if (const std::string t = absl::GetFlag(FLAGS_target); !t.empty()) {
    double x;
    if (!absl::SimpleAtod(t, &x))
      return absl::InvalidArgumentError("--target: expected a number");
    common = x;
  }
  std::vector<Model> models;
  for (absl::string_view entry : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    if (absl::Status s = AddModels(stub, entry, models); !s.ok()) return s;
  }
  for (Model& m : models) {
    if (!m.target_objective) m.target_objective = common;
  }
  return models;
}

// One Solve: appends the energies it streamed (or, for a timed run, its best)
// to the point, with its sampling time.
grpc::Status RunOnce(v1::Solver::Stub& stub, const v1::SolveRequest& request,
                     bool timed, Point& point) {
  grpc::ClientContext context;
  PrepareContext(context);
  auto reader = stub.Solve(&context, request);
  v1::SolveResponse event;
  std::optional<v1::SolveSummary> summary;
  uint64_t streamed = 0;
  while (reader->Read(&event)) {
    if (event.has_sample() && !timed) {
      point.energies.push_back(
          {event.sample().energy(), event.sample().num_occurrences()});
      streamed += event.sample().num_occurrences();
    } else if (event.has_summary()) {
      summary = event.summary();
    }
  }
  grpc::Status status = reader->Finish();
  if (!status.ok()) return status;
  if (!summary) {
    return grpc::Status(grpc::StatusCode::INTERNAL,
                        "the stream ended without a summary");
  }
  if (timed && summary->reads_done() > 0)
    point.energies.push_back({summary->best_energy(), 1});
  // A server under back-pressure drops sample events; p needs every read.
  if (!timed && (summary->sample_events_dropped() > 0 ||
                 streamed != summary->reads_done())) {
    return grpc::Status(
        grpc::StatusCode::FAILED_PRECONDITION,
        absl::StrCat("the server streamed ", streamed, " of ",
                     summary->reads_done(),
                     " reads (it drops sample events past 256 queued "
                     "messages); use fewer --reads and more --repeats"));
  }
  // A remote device's cost is the device time it bills (a QPU's access
  // time), not the wall time of queueing and polling: TTS on a QPU is
  // measured in it, as the QPU literature does.
  point.sample_seconds += summary->timings().device_seconds() > 0
                              ? summary->timings().device_seconds()
                              : summary->timings().sample_seconds();
  point.cpu_seconds += summary->timings().annealer_cpu_seconds();
  point.reads += timed ? 1 : summary->reads_done();
  return status;
}

std::string Num(double x) {
  return std::isfinite(x) ? absl::StrFormat("%.6g", x) : "inf";
}

google::protobuf::Value JsonFinite(double x) {
  return std::isfinite(x) ? JsonNumber(x) : JsonNull();
}

// The fields of one result row, in CSV order.
std::vector<std::pair<std::string, double>> RowNumbers(const Point& p,
                                                       const Model& model,
                                                       double unit_seconds,
                                                       int repeats) {
  // The rule is its own inverse; puzzles have no objective: their energy.
  const double best_objective =
      EnergyForObjective(model.spec, p.stats.best_energy)
          .value_or(p.stats.best_energy);
  const double target_objective =
      EnergyForObjective(model.spec, p.target).value_or(p.target);
  return {{"budget", p.budget},
          {"repeats", repeats},
          {"reads", static_cast<double>(p.stats.reads)},
          {"successes", static_cast<double>(p.stats.successes)},
          {"p", p.stats.p},
          {"tts99_s", p.stats.tts99},
          {"tts99_low_s", p.stats.tts99_low},
          {"tts99_high_s", p.stats.tts99_high},
          {"t_read_s", unit_seconds},
          {"cpu_read_s", p.reads > 0 ? p.cpu_seconds / p.reads : 0},
          {"mean_residual", p.stats.mean_residual},
          {"best_energy", p.stats.best_energy},
          {"best_objective", best_objective},
          {"target_energy", p.target},
          {"target_objective", target_objective}};
}

// The plot as SVG; a .png path gets the SVG beside it, rendered by Debian's
// chromium in headless mode.
absl::Status WritePlot(const std::string& path,
                       const std::vector<Point>& points,
                       const std::vector<Model>& models,
                       const std::vector<std::string>& backends,
                       size_t budgets_per_series, bool timed) {
  const bool png = absl::EndsWith(path, ".png");
  if (!png && !absl::EndsWith(path, ".svg"))
    return absl::InvalidArgumentError("--plot: give a .svg or .png file");
  std::vector<PlotSeries> series;
  const Point* best = nullptr;
  for (const Point& p : points) {
    if (best == nullptr ||
        (std::isfinite(p.stats.tts99) && !(p.stats.tts99 >= best->stats.tts99)))
      best = &p;
    if (series.empty() || series.back().budgets.size() == budgets_per_series) {
      const auto it = std::find(backends.begin(), backends.end(), p.backend);
      series.push_back({p.backend,
                        models[p.model].name,
                        static_cast<int>(it - backends.begin()),
                        {},
                        {}});
    }
    series.back().budgets.push_back(p.budget);
    series.back().tts.push_back(p.stats.tts99);
  }
  if (best == nullptr) return absl::InvalidArgumentError("--plot: no points");
  const std::string title = absl::StrCat(
      "TTS99 of ", models.size(), " model", models.size() == 1 ? "" : "s",
      "; histogram: ", models[best->model].name, ", ", best->backend, ", ",
      Num(best->budget), timed ? " s" : " sweeps");
  const std::string svg_path = png ? path + ".svg" : path;
  std::ofstream out(svg_path);
  out << PlotSvg(series, timed ? "time budget (s)" : "sweeps per read",
                 best->energies, best->target, title);
  out.close();
  if (!out)
    return absl::UnavailableError(absl::StrCat("cannot write ", svg_path));
  if (!png) return absl::OkStatus();
  const std::string command = absl::StrCat(
      "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
      "--window-size=900,380 --screenshot='",
      path, "' 'file://", std::filesystem::absolute(svg_path).string(),
      "' >/dev/null 2>&1");
  if (path.find('\'') != std::string::npos ||
      std::system(command.c_str()) != 0) {
    return absl::UnavailableError(
        absl::StrCat("--plot: rendering ", path,
                     " needs Debian's chromium; the SVG is in ", svg_path));
  }
  return absl::OkStatus();
}

}  // namespace

int Bench() {
  auto stub = v1::Solver::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  auto models = ModelsFromFlags(*stub);
  if (!models.ok()) return ReportInputError(models.status());
  const bool timed = !absl::GetFlag(FLAGS_time_budgets).empty();
  auto budgets = NumberList(
      timed ? "time_budgets" : "sweeps",
      timed ? absl::GetFlag(FLAGS_time_budgets) : absl::GetFlag(FLAGS_sweeps));
  if (!budgets.ok()) return ReportLocalError(budgets.status());
  if (budgets->empty()) budgets->push_back(1000);
  // A timed run anneals at the first --sweeps value (1000 when unset).
  auto sweep_list = NumberList("sweeps", absl::GetFlag(FLAGS_sweeps));
  if (!sweep_list.ok()) return ReportLocalError(sweep_list.status());
  const double timed_sweeps = sweep_list->empty() ? 1000 : sweep_list->front();
  // The shared solve flags read --sweeps as one number; the list is ours.
  absl::SetFlag(&FLAGS_sweeps, "");
  auto base = SolveParamsFromFlags();
  if (!base.ok()) return ReportLocalError(base.status());
  const int repeats = absl::GetFlag(FLAGS_repeats);
  if (repeats < 1)
    return ReportLocalError(
        absl::InvalidArgumentError("--repeats: must be >= 1"));
  const int64_t reads = absl::GetFlag(FLAGS_reads);
  const uint64_t seed0 =
      absl::GetFlag(FLAGS_seed) >= 0 ? absl::GetFlag(FLAGS_seed) : 1;
  const std::vector<std::string> backends =
      absl::StrSplit(absl::GetFlag(FLAGS_backends), ',', absl::SkipEmpty());

  std::vector<Point> points;
  double wall_seconds = 0;
  for (size_t m = 0; m < models->size(); ++m) {
    const Model& model = (*models)[m];
    std::optional<double> target;
    if (model.target_objective) {
      auto energy = EnergyForObjective(model.spec, *model.target_objective);
      if (!energy.ok()) return ReportLocalError(energy.status());
      target = *energy;
    }
    const size_t first = points.size();
    for (const std::string& backend : backends) {
      for (double budget : *budgets) {
        Point point;
        point.model = m;
        point.backend = backend;
        point.budget = budget;
        v1::SolveRequest request;
        *request.mutable_puzzle() = model.spec;
        *request.mutable_params() = *base;
        v1::SolveParams& params = *request.mutable_params();
        params.set_backend(backend);
        params.set_aggregate(true);
        if (timed) {
          params.set_time_limit_seconds(budget);
          params.set_num_reads(kTimedRunReads);
          params.set_num_sweeps(static_cast<uint32_t>(timed_sweeps));
          params.set_max_sample_events(1);
          if (target) params.set_target_energy(*target);
        } else {
          params.set_num_sweeps(static_cast<uint32_t>(budget));
          params.set_num_reads(reads > 0 ? static_cast<uint32_t>(reads) : 100);
          params.set_max_sample_events(0);
        }
        for (int r = 0; r < repeats; ++r) {
          params.set_seed(seed0 + r);
          const absl::Time start = absl::Now();
          const grpc::Status status = RunOnce(*stub, request, timed, point);
          wall_seconds += absl::ToDoubleSeconds(absl::Now() - start);
          if (!status.ok()) return ReportRpcError(status);
        }
        points.push_back(std::move(point));
      }
    }
    // The target: the model's own, else the best any of its points saw.
    double best = kInf;
    for (size_t k = first; k < points.size(); ++k) {
      for (const EnergyCount& e : points[k].energies)
        best = std::min(best, e.energy);
    }
    for (size_t k = first; k < points.size(); ++k) {
      Point& p = points[k];
      p.target = target.value_or(best);
      const double unit =
          timed ? p.budget : (p.reads > 0 ? p.sample_seconds / p.reads : 0);
      p.stats = Summarize(p.energies, p.target, unit,
                          absl::GetFlag(FLAGS_bootstrap), seed0 + k);
    }
  }

  // Output: table or JSON lines on stdout, CSV and plot on request.
  const bool json = absl::GetFlag(FLAGS_json);
  const std::string budget_unit = timed ? "seconds" : "sweeps";
  std::string csv = absl::StrCat("model,backend,budget_unit,");
  if (!json) {
    std::printf("%-28s %-8s %9s %7s %6s %11s %23s %10s %11s %13s %13s\n",
                "model", "backend", timed ? "budget_s" : "sweeps", "reads", "p",
                "tts99_s", "tts99 95% interval", "t_read_s", "residual",
                "best_energy", "objective");
  }
  double sample_total = 0;
  for (size_t k = 0; k < points.size(); ++k) {
    const Point& p = points[k];
    const Model& model = (*models)[p.model];
    sample_total += p.sample_seconds;
    const double unit =
        timed ? p.budget : (p.reads > 0 ? p.sample_seconds / p.reads : 0);
    const auto numbers = RowNumbers(p, model, unit, repeats);
    if (k == 0) {
      std::vector<std::string> names;
      for (const auto& [name, value] : numbers) names.push_back(name);
      absl::StrAppend(&csv, absl::StrJoin(names, ","), "\n");
    }
    std::vector<std::string> values;
    for (const auto& [name, value] : numbers) values.push_back(Num(value));
    absl::StrAppend(&csv, model.name, ",", p.backend, ",", budget_unit, ",",
                    absl::StrJoin(values, ","), "\n");
    if (json) {
      google::protobuf::Struct row;
      auto& f = *row.mutable_fields();
      f["model"] = JsonString(model.name);
      f["backend"] = JsonString(p.backend);
      f["budget_unit"] = JsonString(budget_unit);
      for (const auto& [name, value] : numbers) f[name] = JsonFinite(value);
      std::printf("%s\n", ToJson(row).c_str());
    } else {
      std::printf(
          "%-28s %-8s %9s %7llu %6.3f %11s [%10s, %10s] %10s %11s %13s %13s\n",
          model.name.c_str(), p.backend.c_str(), Num(p.budget).c_str(),
          static_cast<unsigned long long>(p.stats.reads), p.stats.p,
          Num(p.stats.tts99).c_str(), Num(p.stats.tts99_low).c_str(),
          Num(p.stats.tts99_high).c_str(), Num(unit).c_str(),
          Num(p.stats.mean_residual).c_str(), Num(p.stats.best_energy).c_str(),
          Num(numbers[12].second).c_str());
    }
  }
  std::fprintf(
      stderr,
      "# %zu points, %zu solves: sampling %.3f s, wall %.3f s, harness "
      "overhead %.1f%% (wall over the servers' sampling time)\n",
      points.size(), points.size() * repeats, sample_total, wall_seconds,
      sample_total > 0 ? 100 * (wall_seconds - sample_total) / sample_total
                       : 0.0);
  if (const std::string path = absl::GetFlag(FLAGS_csv); !path.empty()) {
    std::ofstream out(path);
    out << csv;
    if (!out)
      return ReportLocalError(
          absl::UnavailableError(absl::StrCat("cannot write ", path)));
  }
  if (const std::string path = absl::GetFlag(FLAGS_plot); !path.empty()) {
    if (absl::Status s =
            WritePlot(path, points, *models, backends, budgets->size(), timed);
        !s.ok())
      return ReportLocalError(s);
  }
  return 0;
}

}  // namespace qs::cli
