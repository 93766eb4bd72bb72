/** CLI results go to stdout, problems to stderr with a failing exit code. */
export const cliOutput = {
  print(line: string): void {
    process.stdout.write(`${line}\n`);
  },
  json(value: unknown): void {
    process.stdout.write(`${JSON.stringify(value)}\n`);
  },
  fail(message: string): void {
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
  },
};
