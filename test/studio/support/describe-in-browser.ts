import { findChromium, INSTALL_HINT } from './find-chromium.js';

/**
 * `describe` for a browser suite. Without Chromium it does not pretend: with
 * SHIPGATE_REQUIRE_BROWSER=1 (CI) the suite fails; on a developer machine one test says loudly
 * that the browser suite did not run and how to install Chromium.
 */
export function describeInBrowser(name: string, suite: (executablePath: string) => void): void {
  const executablePath = findChromium();
  if (executablePath) {
    describe(name, () => suite(executablePath));
    return;
  }
  describe(name, () => {
    it('needs Chromium, which this machine does not have', () => {
      const message = `\n*** The studio browser suite "${name}" did NOT run: no Chromium found. ${INSTALL_HINT} ***\n`;
      if (process.env.SHIPGATE_REQUIRE_BROWSER === '1') throw new Error(message);
      process.stderr.write(message);
      expect(findChromium()).toBeUndefined();
    });
  });
}
