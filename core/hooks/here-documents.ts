/**
 * A here-document's body (docs/agent-hooks.md, "Shell commands and files"): `<<DELIM` (or `<<-`,
 * leading tabs stripped) gives the command the lines after the current one, up to a line that is
 * DELIM. `python3 - <<'EOF'` runs the body as a program, `bash <<EOF` as a script: a security
 * probe read `.env` with `python3 - <<'EOF'` + `print(open('.env').read())`, its body read only as
 * shell words. The body's lines are still read as commands too, as before (shell-words.ts).
 */

/** The delimiter after `<<`: quoted (`'EOF'`, `"EOF"`), escaped (`\EOF`) or plain. */
const DELIMITER = /[ \t]*(?:'([^'\n]*)'|"([^"\n]*)"|\\?([^\s;&|()<>'"]+))/y;

/** Characters scanned for bodies, per line read: `<<A` repeated with no `A` line would scan the line once per `<<`. */
export type HereDocumentBudget = { hereDocumentChars: number };

/**
 * The body of the here-document whose delimiter starts at `from` in `line`, or undefined without
 * one. Throws `tooMuch` once the budget's characters are spent.
 */
export function hereDocumentBody(
  line: string,
  from: number,
  stripTabs: boolean,
  budget: HereDocumentBudget,
  tooMuch: () => Error,
): string | undefined {
  DELIMITER.lastIndex = from;
  const found = DELIMITER.exec(line);
  if (!found) return undefined;
  const delimiter = (found[1] ?? found[2] ?? found[3]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const newline = line.indexOf('\n', DELIMITER.lastIndex);
  if (newline < 0) return '';
  // Found by the regular expression engine in one pass: a line at a time, a long body took a quarter of a second.
  const end = new RegExp(`\\n${stripTabs ? '\\t*' : ''}${delimiter}(?=\\n|$)`, 'g');
  end.lastIndex = newline;
  const close = end.exec(line)?.index ?? line.length;
  if ((budget.hereDocumentChars -= close - newline) < 0) throw tooMuch();
  const body = line.slice(newline + 1, close);
  return stripTabs ? body.replace(/^\t+/gm, '') : body;
}
