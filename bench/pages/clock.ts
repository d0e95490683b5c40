// The one clock every bench context reads: wall-aligned high-resolution time, comparable across tabs and workers.
export const now = (): number => performance.timeOrigin + performance.now()
