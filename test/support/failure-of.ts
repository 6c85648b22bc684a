/** What a run's `result()` rejected with; an Error saying so when it resolved instead. */
export function failureOf(run: { result(): Promise<unknown> }): Promise<unknown> {
  return run.result().then(
    () => new Error('expected the run to fail'),
    (error: unknown) => error,
  );
}
