/**
 * Moves Date.now() of this test file forward by `ms`, and with it that of the application it
 * started in-process (same module registry, same Date): what would expire in `ms` has expired,
 * without waiting for it. Timers keep real time. Call the returned function to put it back.
 */
export function moveClockForward(ms: number): () => void {
  const now = Date.now.bind(Date);
  const moved = jest.spyOn(Date, 'now').mockImplementation(() => now() + ms);
  return () => moved.mockRestore();
}
