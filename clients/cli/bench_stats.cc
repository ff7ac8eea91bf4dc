// TTS99, bootstrap intervals and the SVG plot of `qsolve bench`.
#include "clients/cli/bench_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qs::cli {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c",
                                    "#9467bd", "#ff7f0e", "#8c564b"};

double Percentile(std::vector<double>& values, double q) {
  const size_t k = std::min(values.size() - 1,
                            static_cast<size_t>(std::floor(q * values.size())));
  std::nth_element(values.begin(), values.begin() + k, values.end());
  return values[k];
}

// A panel of the plot: pixel box and data ranges (log10 where asked).
struct Panel {
  double left, top, width, height;
  double x0, x1, y0, y1;
  double X(double x) const { return left + (x - x0) / (x1 - x0) * width; }
  double Y(double y) const {
    return top + height - (y - y0) / (y1 - y0) * height;
  }
};

std::string Escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Text(double x, double y, const std::string& text,
                 const char* anchor = "middle", int size = 12) {
  return absl::StrFormat(
      "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" "
      "text-anchor=\"%s\">%s</text>\n",
      x, y, size, anchor, Escaped(text));
}

std::string Frame(const Panel& p) {
  return absl::StrFormat(
      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
      "fill=\"none\" "
      "stroke=\"#333\"/>\n",
      p.left, p.top, p.width, p.height);
}

// Decade ticks of a log axis between floor(lo) and ceil(hi).
std::string LogTicks(const Panel& p, bool x_axis) {
  std::string out;
  const double lo = x_axis ? p.x0 : p.y0, hi = x_axis ? p.x1 : p.y1;
  for (int e = static_cast<int>(std::ceil(lo)); e <= std::floor(hi); ++e) {
    const std::string label = absl::StrFormat("1e%d", e);
    if (x_axis) {
      const double x = p.X(e);
      absl::StrAppendFormat(&out,
                            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            "y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                            x, p.top, x, p.top + p.height);
      out += Text(x, p.top + p.height + 16, label);
    } else {
      const double y = p.Y(e);
      absl::StrAppendFormat(&out,
                            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            "y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                            p.left, y, p.left + p.width, y);
      out += Text(p.left - 6, y + 4, label, "end");
    }
  }
  return out;
}

std::string TtsPanel(const std::vector<PlotSeries>& series,
                     const std::string& budget_label) {
  double bx0 = kInf, bx1 = -kInf, ty0 = kInf, ty1 = -kInf;
  for (const PlotSeries& s : series) {
    for (size_t k = 0; k < s.budgets.size(); ++k) {
      if (!std::isfinite(s.tts[k]) || s.tts[k] <= 0 || s.budgets[k] <= 0)
        continue;
      bx0 = std::min(bx0, std::log10(s.budgets[k]));
      bx1 = std::max(bx1, std::log10(s.budgets[k]));
      ty0 = std::min(ty0, std::log10(s.tts[k]));
      ty1 = std::max(ty1, std::log10(s.tts[k]));
    }
  }
  if (!std::isfinite(bx0)) bx0 = 0, bx1 = 1, ty0 = -3, ty1 = 0;
  const Panel p{70,
                40,
                360,
                280,
                std::floor(bx0) - 0.1,
                std::ceil(bx1) + 0.1,
                std::floor(ty0) - 0.1,
                std::ceil(ty1) + 0.1};
  std::string out = Frame(p) + LogTicks(p, true) + LogTicks(p, false);
  out += Text(p.left + p.width / 2, p.top + p.height + 34, budget_label);
  out += absl::StrFormat(
      "<text x=\"18\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 18 %.1f)\">TTS99 (s)</text>\n",
      p.top + p.height / 2, p.top + p.height / 2);
  std::map<std::string, int> legend;
  for (const PlotSeries& s : series) {
    const char* colour = kPalette[s.colour % std::size(kPalette)];
    legend.emplace(s.label, s.colour);
    std::string points;
    double last_x = 0, last_y = 0;
    for (size_t k = 0; k < s.budgets.size(); ++k) {
      if (!std::isfinite(s.tts[k]) || s.tts[k] <= 0 || s.budgets[k] <= 0)
        continue;
      const double x = p.X(std::log10(s.budgets[k])),
                   y = p.Y(std::log10(s.tts[k]));
      absl::StrAppendFormat(&points, "%.1f,%.1f ", x, y);
      last_x = x;
      last_y = y;
      absl::StrAppendFormat(
          &out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", x, y,
          colour);
    }
    absl::StrAppendFormat(&out,
                          "<polyline points=\"%s\" fill=\"none\" "
                          "stroke=\"%s\" stroke-opacity=\"0.7\"/>\n",
                          points, colour);
    if (!points.empty() && !s.name.empty())
      out += Text(last_x - 4, last_y - 6, s.name, "end", 10);
  }
  double y = p.top + 14;
  for (const auto& [label, colour] : legend) {
    absl::StrAppendFormat(&out,
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" "
                          "height=\"10\" fill=\"%s\"/>\n",
                          p.left + 10, y - 9,
                          kPalette[colour % std::size(kPalette)]);
    out += Text(p.left + 26, y, label, "start");
    y += 16;
  }
  return out;
}

std::string HistogramPanel(std::span<const EnergyCount> energies,
                           double target) {
  const Panel frame{510, 40, 360, 280, 0, 1, 0, 1};
  std::string out = Frame(frame);
  out += Text(frame.left + frame.width / 2, frame.top + frame.height + 34,
              "energy - target (reads of the best point)");
  if (energies.empty()) return out;
  double lo = kInf, hi = -kInf;
  uint64_t total = 0;
  for (const EnergyCount& e : energies) {
    lo = std::min(lo, e.energy - target);
    hi = std::max(hi, e.energy - target);
    total += e.count;
  }
  constexpr int kBins = 30;
  const double width = std::max((hi - lo) / kBins, 1e-12);
  std::vector<uint64_t> bins(kBins, 0);
  for (const EnergyCount& e : energies) {
    const int b =
        std::min(kBins - 1, static_cast<int>((e.energy - target - lo) / width));
    bins[b] += e.count;
  }
  const uint64_t top = *std::max_element(bins.begin(), bins.end());
  const Panel p{frame.left,  frame.top,
                frame.width, frame.height,
                lo,          lo + width * kBins,
                0,           static_cast<double>(top) * 1.1};
  for (int b = 0; b < kBins; ++b) {
    if (bins[b] == 0) continue;
    const double x = p.X(lo + b * width), w = p.X(lo + (b + 1) * width) - x;
    absl::StrAppendFormat(
        &out,
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
        "height=\"%.1f\" fill=\"#1f77b4\" stroke=\"#fff\"/>\n",
        x, p.Y(bins[b]), std::max(w, 1.0), p.Y(0) - p.Y(bins[b]));
  }
  out += Text(p.left, p.top + p.height + 16, absl::StrFormat("%.6g", lo));
  out += Text(p.left + p.width, p.top + p.height + 16,
              absl::StrFormat("%.6g", lo + width * kBins));
  out += Text(p.left + 6, p.top + 14,
              absl::StrFormat("%d reads, highest bin %d", total, top), "start");
  return out;
}

}  // namespace

double Tts99(double p, double unit_seconds) {
  if (p <= 0) return kInf;
  if (p >= 1) return unit_seconds;
  return unit_seconds * std::log(0.01) / std::log1p(-p);
}

PointStats Summarize(std::span<const EnergyCount> energies, double target,
                     double unit_seconds, int resamples, uint64_t seed) {
  PointStats stats;
  stats.best_energy = kInf;
  double sum = 0;
  for (const EnergyCount& e : energies) {
    stats.reads += e.count;
    if (e.energy <= target + kTargetTolerance) stats.successes += e.count;
    sum += (e.energy - target) * static_cast<double>(e.count);
    stats.best_energy = std::min(stats.best_energy, e.energy);
  }
  if (stats.reads == 0) {
    stats.tts99 = stats.tts99_low = stats.tts99_high = kInf;
    return stats;
  }
  stats.p = static_cast<double>(stats.successes) / stats.reads;
  stats.mean_residual = sum / static_cast<double>(stats.reads);
  stats.tts99 = Tts99(stats.p, unit_seconds);
  std::mt19937_64 rng(seed);
  std::binomial_distribution<uint64_t> draw(stats.reads, stats.p);
  std::vector<double> tts(std::max(resamples, 1));
  for (double& t : tts)
    t = Tts99(static_cast<double>(draw(rng)) / stats.reads, unit_seconds);
  stats.tts99_low = Percentile(tts, 0.025);
  stats.tts99_high = Percentile(tts, 0.975);
  return stats;
}

std::string PlotSvg(const std::vector<PlotSeries>& series,
                    const std::string& budget_label,
                    std::span<const EnergyCount> histogram,
                    double histogram_target, const std::string& title) {
  std::string out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"380\" "
      "font-family=\"sans-serif\">\n<rect width=\"900\" height=\"380\" "
      "fill=\"white\"/>\n";
  out += Text(450, 22, title, "middle", 14);
  out += TtsPanel(series, budget_label);
  out += HistogramPanel(histogram, histogram_target);
  return out + "</svg>\n";
}

}  // namespace qs::cli
