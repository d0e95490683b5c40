// Limits every websocket of the server keeps (issue 11 finding 11): what a peer may send (a token bucket per socket;
// a flood closes the socket with 1008), and how far a peer may fall behind reading (past the cap its socket is cut:
// the server keeps no unbounded queue for a slow or stalled reader). The per-user cap of push sockets is in
// push/local-sockets.ts.
import type { WebSocket } from 'ws'

/** RFC 6455 "Policy Violation": the peer broke a rule of ours (here: sent too fast). */
export const CLOSE_POLICY_VIOLATION = 1008

export interface InputLimit {
  /** messages accepted at once after a quiet spell. */
  readonly burst: number
  /** messages per second accepted for good. */
  readonly perSecond: number
}

/**
 * A gate for the socket's incoming messages: call it for each one; false means drop it (the socket has been closed
 * with CLOSE_POLICY_VIOLATION for sending faster than the limit).
 */
export const inputGate = (ws: WebSocket, limit: InputLimit, now: () => number = Date.now): (() => boolean) => {
  let tokens = limit.burst
  let at = now()
  let closed = false
  return () => {
    if (closed) return false
    const t = now()
    tokens = Math.min(limit.burst, tokens + ((t - at) / 1000) * limit.perSecond)
    at = t
    if (tokens >= 1) {
      tokens -= 1
      return true
    }
    closed = true
    ws.close(CLOSE_POLICY_VIOLATION, 'too many messages')
    return false
  }
}

/**
 * Sends a frame unless the peer is already more than `maxBufferedBytes` behind: then the socket is cut at once (a
 * close frame would only queue behind what it does not read). True when the frame was queued.
 */
export const sendOrCut = (ws: WebSocket, frame: string, maxBufferedBytes: number): boolean => {
  if (ws.readyState !== ws.OPEN) return false
  if (ws.bufferedAmount > maxBufferedBytes) {
    ws.terminate()
    return false
  }
  ws.send(frame)
  return true
}
