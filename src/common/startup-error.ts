/** A reason the process cannot start, told to the operator as it is (no stack). */
export class StartupError extends Error {}
