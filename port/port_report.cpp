#include "port/port_report.hpp"

#include "driver/html_escape.hpp"

namespace p2a::port {

using html::escape;

std::string formatPortReport(const std::vector<ReportedFile> &files) {
  unsigned total = 0, ported = 0;
  for (const ReportedFile &f : files) {
    total += static_cast<unsigned>(f.result->sites.size());
    ported += f.result->ported;
  }
  std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>port-asm report</title>\n<style>\n"
                  "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;width:100%}"
                  "td,th{border:1px solid #ccc;padding:4px;vertical-align:top;text-align:left}"
                  "pre{margin:0;font-size:85%;white-space:pre-wrap;word-break:break-word}.ported{color:#060}.left{color:#a00}"
                  "td:nth-child(3){min-width:28em}"
                  "</style></head><body>\n<h1>port-asm report</h1>\n";
  h += "<p>" + std::to_string(files.size()) + " files, " + std::to_string(total) + " asm statements, " +
       std::to_string(ported) + " ported (each proved equal to its PTX), " + std::to_string(total - ported) +
       " left as they are.</p>\n<table><tr><th>file</th><th>asm statements</th><th>ported</th><th>left</th></tr>\n";
  for (const ReportedFile &f : files)
    h += "<tr><td>" + escape(f.name) + "</td><td>" + std::to_string(f.result->sites.size()) + "</td><td>" +
         std::to_string(f.result->ported) + "</td><td>" +
         std::to_string(f.result->sites.size() - f.result->ported) + "</td></tr>\n";
  h += "</table>\n";
  for (const ReportedFile &f : files) {
    const LineTable lines(*f.source);
    h += "<h2>" + escape(f.name) + "</h2>\n<table><tr><th>where</th><th>PTX</th><th>replacement</th>"
         "<th>rules</th><th>status</th></tr>\n";
    for (const PortedSite &s : f.result->sites) {
      const AsmStatement &st = *s.statement;
      const LineColumn lc = lines.at(st.begin);
      h += "<tr><td>" + escape(f.name) + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) +
           "</td><td><pre>" + escape(s.ptx.empty() ? st.templateText : s.ptx) + "</pre></td><td><pre>" +
           (!s.ported ? "" : s.asmBlock.empty() ? escape(printSite(s.cxx, "", false)) : escape(s.asmBlock)) +
           "</pre></td><td>";
      for (size_t i = 0; i < s.rules.size(); ++i)
        h += (i ? "<br>" : "") + escape(s.rules[i]);
      h += "</td><td>";
      if (s.ported) {
        h += "<span class=\"ported\">ported, proved</span>";
      } else {
        h += "<span class=\"left\">left as it is</span>";
        for (const Diagnostic &d : s.diags)
          h += "<br>" + escape(d.message);
      }
      h += "</td></tr>\n";
    }
    h += "</table>\n";
  }
  return h + "</body></html>\n";
}

} // namespace p2a::port
