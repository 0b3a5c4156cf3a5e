#include "reports/html_report.hpp"

#include "driver/html_escape.hpp"
#include "targets/target_info.hpp"
#include "rules/rule.hpp"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <string_view>

namespace p2a::report {

namespace {

using html::escape;

// Source lines, without their terminators. Invalid UTF-8 is left to the
// browser, which shows U+FFFD for it (the page declares UTF-8).
std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos)
      nl = text.size();
    std::string_view l = text.substr(start, nl - start);
    if (!l.empty() && l.back() == '\r')
      l.remove_suffix(1);
    lines.push_back(l);
    start = nl + 1;
  }
  return lines;
}

const char *kStyle = R"css(
body{font-family:system-ui,sans-serif;margin:1.5em;color:#1b1f24;background:#fff}
h1{font-size:1.4em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.6em 0 .4em;border-bottom:1px solid #d0d7de}
h3{font-size:1em;margin:1em 0 .3em}
table{border-collapse:collapse;margin:.3em 0}
td,th{border:1px solid #d0d7de;padding:2px 8px;vertical-align:top;text-align:left}
th{background:#f6f8fa}
table.listing td{font-family:ui-monospace,monospace;font-size:12.5px;white-space:pre}
table.listing td.ln{color:#6e7781;text-align:right}
ul.file-errors{color:#a40e26}
tr.translated td.ptx{background:#eef8f0}
tr.error td{background:#ffebe9}
tr.warning td{background:#fff8c5}
table.listing td.msg{font-family:system-ui,sans-serif;white-space:normal;color:#a40e26}
table.listing tr.warning td.msg{color:#7d4e00}
.rule{position:relative;border-bottom:1px dotted #0969da;color:#0969da;cursor:help}
.rule:hover::after{content:attr(data-note);position:absolute;left:0;top:1.4em;z-index:2;width:34em;
  white-space:normal;background:#1b1f24;color:#fff;padding:6px 8px;border-radius:4px;font-family:system-ui,sans-serif}
.status-translated{color:#1a7f37}.status-failed{color:#cf222e}.status-skipped{color:#6e7781}
.num{text-align:right}
)css";

const char *statusName(batch::FileOutcome::Status s) {
  switch (s) {
  case batch::FileOutcome::Status::Translated: return "translated";
  case batch::FileOutcome::Status::Failed: return "failed";
  case batch::FileOutcome::Status::Skipped: return "skipped";
  }
  return "";
}

std::string ruleSpan(const rules::Rule &r) {
  return "<span class=\"rule\" title=\"" + escape(r.restriction) + "\" data-note=\"" + escape(r.restriction) + "\">" +
         escape(r.name) + "</span>";
}

void renderFile(llvm::raw_ostream &os, const batch::FileOutcome &f, size_t index) {
  os << "<section class=\"file\" id=\"file-" << index << "\" data-input=\"" << escape(f.file.input) << "\">\n";
  os << "<h2>" << escape(f.file.input) << " <span class=\"status status-" << statusName(f.status) << "\">"
     << statusName(f.status) << "</span></h2>\n";
  // Failures of the whole file (unreadable, unwritable output, MC).
  if (!f.fileErrors.empty()) {
    os << "<ul class=\"file-errors\">\n";
    for (const std::string &e : f.fileErrors)
      os << "<li class=\"error\">error: " << escape(e) << "</li>\n";
    os << "</ul>\n";
  }
  if (!f.result) {
    os << "</section>\n";
    return;
  }
  const module::ModuleResult &m = *f.result;

  // Register use and size per function.
  if (!m.functions.empty()) {
    os << "<h3>Functions</h3>\n<table class=\"functions\"><tr><th>function</th><th>kind</th><th>status</th>"
          "<th>VGPRs</th><th>SGPRs</th><th>spills (VGPR / SGPR values)</th><th>scratch bytes</th>"
          "<th>PTX instructions</th><th>AMD instructions</th></tr>\n";
    for (const module::FunctionResult &fn : m.functions) {
      const unsigned amd = translate::amdInstructionCount(fn.translation);
      os << "<tr data-function=\"" << escape(fn.name) << "\"><td>" << escape(fn.name) << "</td><td>"
         << (fn.isEntry ? ".entry" : ".func") << "</td><td class=\"status-" << (fn.ok ? "translated" : "failed")
         << "\">" << (fn.ok ? "translated" : "failed") << "</td><td class=\"num vgprs\">" << fn.translation.numVgprs
         << "</td><td class=\"num sgprs\">" << fn.translation.numSgprs << "</td><td class=\"num spills\">"
         << (fn.kernel ? std::to_string(fn.kernel->spilledVgprValues) + " / " + std::to_string(fn.kernel->spilledSgprValues)
                       : std::string("-"))
         << "</td><td class=\"num scratch\">" << (fn.kernel ? std::to_string(fn.kernel->privateBytes) : std::string("-"))
         << "</td><td class=\"num\">" << fn.translation.instructions.size() << "</td><td class=\"num\">" << amd << "</td></tr>\n";
    }
    os << "</table>\n";
  }

  // Rules used, with counts.
  std::map<const rules::Rule *, unsigned> used;
  std::map<unsigned, std::vector<const mir::TranslatedInstruction *>> byLine;
  for (const module::FunctionResult &fn : m.functions)
    for (const mir::TranslatedInstruction &ti : fn.translation.instructions) {
      if (ti.rule) // kernel ABI code, memory and special registers have no rule
        ++used[ti.rule];
      byLine[ti.loc.line].push_back(&ti);
    }
  if (!used.empty()) {
    std::vector<std::pair<const rules::Rule *, unsigned>> v(used.begin(), used.end());
    std::stable_sort(v.begin(), v.end(), [](const auto &a, const auto &b) {
      return a.second != b.second ? a.second > b.second : a.first->name < b.first->name;
    });
    os << "<h3>Rules used</h3>\n<table class=\"rules\"><tr><th>rule</th><th>uses</th><th>AMD instructions each</th></tr>\n";
    for (const auto &[r, n] : v)
      os << "<tr><td>" << ruleSpan(*r) << "</td><td class=\"num\">" << n << "</td><td class=\"num\">" << r->seq.size()
         << "</td></tr>\n";
    os << "</table>\n";
  }

  std::map<unsigned, std::vector<const Diagnostic *>> diagsByLine;
  std::vector<const Diagnostic *> unlocated;
  for (const Diagnostic &d : m.diagnostics)
    (d.loc.line ? diagsByLine[d.loc.line] : unlocated).push_back(&d);
  for (const Diagnostic *d : unlocated)
    os << "<p class=\"" << (d->severity == Diagnostic::Severity::Error ? "error" : "warning") << "\">"
       << escape(d->message) << "</p>\n";

  // The listing: every source line, its AMD instructions, rule and cost.
  os << "<h3>Listing</h3>\n<table class=\"listing\"><tr><th>line</th><th>PTX</th><th>AMD "
     << "</th><th>rule</th><th>cycles</th></tr>\n";
  std::vector<std::string_view> lines = splitLines(f.source);
  for (size_t i = 0; i < lines.size(); ++i) {
    const unsigned ln = static_cast<unsigned>(i + 1);
    auto tr = byLine.find(ln);
    auto dg = diagsByLine.find(ln);
    bool hasError = false, hasWarning = false;
    if (dg != diagsByLine.end())
      for (const Diagnostic *d : dg->second)
        (d->severity == Diagnostic::Severity::Error ? hasError : hasWarning) = true;
    const char *cls = hasError ? "error" : hasWarning ? "warning" : tr != byLine.end() ? "translated" : "plain";
    os << "<tr class=\"" << cls << "\" id=\"f" << index << "-L" << ln << "\" data-line=\"" << ln << "\"><td class=\"ln\">"
       << ln << "</td><td class=\"ptx\">" << escape(lines[i]) << "</td>";
    std::string msgs;
    if (dg != diagsByLine.end())
      for (const Diagnostic *d : dg->second)
        msgs += (msgs.empty() ? "" : "<br>") +
                std::string(d->severity == Diagnostic::Severity::Error ? "error: " : "warning: ") + escape(d->message);
    if (tr != byLine.end()) {
      std::string gcn, rulesCell, cost;
      for (const mir::TranslatedInstruction *ti : tr->second) {
        for (const std::string &g : ti->text().gcn)
          gcn += (gcn.empty() ? "" : "\n") + escape(g);
        rulesCell += (rulesCell.empty() ? "" : "<br>") +
                     (ti->rule ? ruleSpan(*ti->rule) + (ti->text().note.empty() ? "" : "<br>") : std::string()) +
                     (!ti->text().note.empty() ? "<span class=\"abi\">" + escape(ti->text().note) + "</span>"
                      : ti->rule        ? std::string()
                                        : std::string("<span class=\"abi\">kernel ABI / memory</span>"));
        std::string c;
        llvm::raw_string_ostream(c) << llvm::format("%g", ti->text().cycles);
        cost += (cost.empty() ? "" : "\n") + c;
      }
      os << "<td class=\"amd\">" << gcn << "</td><td class=\"rulecell\">" << rulesCell << "</td><td class=\"num cost\">"
         << cost << "</td>";
    } else if (!msgs.empty()) {
      os << "<td class=\"msg\" colspan=\"3\">" << msgs << "</td>";
      msgs.clear();
    } else {
      os << "<td></td><td></td><td></td>";
    }
    os << "</tr>\n";
    // A line with code and a message (two instructions on one line): the
    // message goes in a row of its own under the code.
    if (!msgs.empty())
      os << "<tr class=\"" << cls << " note\" data-note-line=\"" << ln << "\"><td class=\"ln\"></td><td></td>"
         << "<td class=\"msg\" colspan=\"3\">" << msgs << "</td></tr>\n";
  }
  os << "</table>\n</section>\n";
}

} // namespace

std::string renderHtml(const batch::Summary &summary, const targets::TargetInfo &t) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>ptx2amdgpu report for " << t.name
     << "</title>\n<style>" << kStyle << "</style></head>\n<body>\n";
  os << "<h1>ptx2amdgpu: PTX beside " << t.name << " code</h1>\n";
  os << "<p class=\"summary\" data-files=\"" << summary.files.size() << "\" data-translated=\"" << summary.translated()
     << "\" data-failed=\"" << summary.failed() << "\" data-skipped=\"" << summary.skipped() << "\">"
     << summary.files.size() << (summary.files.size() == 1 ? " file: " : " files: ") << summary.translated() << " translated, " << summary.failed()
     << " failed, " << summary.skipped() << " skipped. Hover a rule for the AMD restriction it handles; cycles "
     << "come from LLVM's scheduling model for " << t.name << ".</p>\n";
  os << "<table class=\"index\"><tr><th>file</th><th>status</th><th>errors</th><th>warnings</th></tr>\n";
  for (size_t i = 0; i < summary.files.size(); ++i) {
    const batch::FileOutcome &f = summary.files[i];
    os << "<tr><td><a href=\"#file-" << i << "\">" << escape(f.file.input) << "</a></td><td class=\"status-"
       << statusName(f.status) << "\">" << statusName(f.status) << "</td><td class=\"num\">" << f.errors
       << "</td><td class=\"num\">" << f.warnings << "</td></tr>\n";
  }
  os << "</table>\n";
  for (size_t i = 0; i < summary.files.size(); ++i)
    renderFile(os, summary.files[i], i);
  os << "</body></html>\n";
  return out;
}

} // namespace p2a::report
