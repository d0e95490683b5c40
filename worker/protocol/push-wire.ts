// The push socket's path and the client's heartbeat frame, free of Schema (the worker opens the socket before it
// loads any schema; the frames' schemas are in push.ts).
export const PUSH_PATH = '/push'

/** The client's heartbeat frame; the server answers with the same type. */
export const keepAliveFrame = (): string => JSON.stringify({ type: 'keepAlive', data: {} })
