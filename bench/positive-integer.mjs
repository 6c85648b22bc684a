/**
 * Reads a whole number above 0 from the environment variable `variable`, so every bench knob
 * (`BENCH_RUNS`, `BENCH_TREES`, `BENCH_CONCURRENCY`, `BENCH_TIMEOUT_MS`) is checked the same way.
 *
 * @param {string} variable the environment variable's name
 * @param {number} fallback the value when the variable is unset or empty
 * @returns {number}
 * @throws {Error} when the variable is set to anything but a whole number above 0
 */
export function positiveInteger(variable, fallback) {
  const text = process.env[variable];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new Error(`${variable}=${text} must be a whole number above 0.`);
  return Number(text);
}
