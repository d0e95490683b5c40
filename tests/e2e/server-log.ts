// What counts as an unexpected error in the reference server's output: the lines its error handler writes for an
// exception no route turned into an answer (server/app.ts: `[server] METHOD /path error`, then the stack), and
// anything Node itself reports on the way to a crash or a leak (an unhandled rejection, an uncaught exception, a
// process warning such as a listener leak). The stack lines under a `[server]` line belong to it.
const UNEXPECTED = /^(\[server\] |Unhandled|Uncaught|\(node:\d+\) |Error: |TypeError: |RangeError: |ReferenceError: )/

/** Each unexpected error of `log`, as its first line plus the next few (the stack's top), in order. */
export const unexpectedServerErrors = (log: string): string[] => {
  const lines = log.split('\n')
  const errors: string[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!UNEXPECTED.test(lines[i]!)) continue
    const stack: string[] = []
    for (let j = i + 1; j < lines.length && stack.length < 4 && /^\s+at |^\s*\S+Error: /.test(lines[j]!); j++) stack.push(lines[j]!)
    errors.push([lines[i]!, ...stack].join('\n'))
  }
  return errors
}
