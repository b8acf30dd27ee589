// Ends a jest run with one plain line, `tests: N passed, N failed`, for tools that read a run's closing line
// (jest's own last line is "Ran all test suites."). Written when the process exits, so it comes last.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `tests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
    process.once('exit', () => process.stderr.write(line));
  }
}

module.exports = SummaryReporter;
