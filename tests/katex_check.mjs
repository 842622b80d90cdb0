// Render every formula of the given Markdown files with KaTeX.
//
// Usage: node tests/katex_check.mjs FILE.md [FILE.md ...]
// Prints one JSON object: {"formulas": N, "errors": [{file, line, latex, message}]}
// and exits 1 when any formula fails (0 otherwise).  Display math is $$...$$
// (on its own lines), inline math is $...$ (an escaped \$ is text).
import { readFileSync } from "node:fs";
import katex from "katex";

function formulas(text) {
  const found = [];
  const lines = text.split("\n");
  let display = null;
  lines.forEach((line, index) => {
    if (display !== null) {
      if (line.trim() === "$$") {
        found.push({ line: display.line, latex: display.body.join("\n"), display: true });
        display = null;
      } else {
        display.body.push(line);
      }
      return;
    }
    if (line.trim() === "$$") {
      display = { line: index + 1, body: [] };
      return;
    }
    const inline = /(?<!\\)\$((?:\\\$|[^$])+?)\$/g;
    for (const match of line.matchAll(inline)) {
      found.push({ line: index + 1, latex: match[1], display: false });
    }
  });
  if (display !== null) {
    found.push({ line: display.line, latex: null, display: true, error: "unclosed $$ block" });
  }
  return found;
}

const strict = (code) => (code === "unicodeTextInMathMode" ? "ignore" : "error");
let count = 0;
const errors = [];
for (const file of process.argv.slice(2)) {
  for (const formula of formulas(readFileSync(file, "utf8"))) {
    count += 1;
    if (formula.error) {
      errors.push({ file, line: formula.line, latex: "", message: formula.error });
      continue;
    }
    try {
      katex.renderToString(formula.latex, { displayMode: formula.display, throwOnError: true, strict });
    } catch (error) {
      errors.push({ file, line: formula.line, latex: formula.latex, message: String(error.message) });
    }
  }
}
console.log(JSON.stringify({ formulas: count, errors }));
process.exit(errors.length ? 1 : 0);
