import { isRecheckCommand } from '../../core/github/recheck-command.js';

/** `/shipgate recheck` on a line of its own (docs/github-app.md, "Events"), tested line by line (docs/operations.md, "Regular expressions"). */
describe('the /shipgate recheck command', () => {
  it('is a line of its own, any case, with white space around and between the words, among other lines', () => {
    for (const body of [
      '/shipgate recheck',
      'please\n/shipgate recheck\n',
      '  /SHIPGATE \t ReCheck  ',
      'a\r\n/shipgate recheck\r\nb',
      'a\r/shipgate recheck',
      'a\u2028/shipgate recheck\u2029b',
      '\n\n\n/shipgate recheck',
    ]) {
      expect([body, isRecheckCommand(body)]).toEqual([body, true]);
    }
  });

  it('is not a mention inside a line, another word, or the words spread over lines', () => {
    for (const body of [
      'please /shipgate recheck',
      '/shipgate recheck now',
      '/shipgate rechecks',
      '/shipgaterecheck',
      '/shipgate\nrecheck',
      '',
      '\n',
    ])
      expect([body, isRecheckCommand(body)]).toEqual([body, false]);
  });

  it('reads a comment of 65,535 line feeds at once (issue 34: the multi-line regex took ~5 s on it)', () => {
    const started = performance.now();
    expect(isRecheckCommand('\n'.repeat(65_535))).toBe(false);
    expect(isRecheckCommand(`${'\n'.repeat(65_535)}/shipgate recheck`)).toBe(true);
    // A few milliseconds each; the old regex took about 5 s on the first.
    expect(performance.now() - started).toBeLessThan(500);
  });
});
