// Refuses request bodies over 64 KiB before anything reads them (issue 11 finding 2): the declared length is checked
// first and a streamed body is cut off as soon as it passes the limit. A route that takes more (the avatar upload)
// declares its own limit on its handler (withBodyLimit); the one global middleware applies the matched route's
// declaration instead of the default, so no list of paths is kept here.
import type { Context, Handler, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { matchedRoutes } from 'hono/route'
import type { App } from '../context.ts'
import { texts } from '../security/texts.ts'
import { Status } from './errors.ts'

export const MAX_BODY_BYTES = 64 * 1024

export interface BodyLimit {
  readonly maxBytes: number
  /** the answer to a body over the limit (the connection is closed after it: the rest is never read). */
  readonly refuse: (c: Context) => Response | Promise<Response>
}

const declared = new WeakMap<Function, MiddlewareHandler>()

const limiter = ({ maxBytes, refuse }: BodyLimit): MiddlewareHandler =>
  bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      c.header('Connection', 'close')
      return refuse(c)
    },
  })

/** The handler with a body limit of its own in place of MAX_BODY_BYTES. */
export const withBodyLimit = <H extends Handler<any, any, any, any>>(limit: BodyLimit, handler: H): H => {
  declared.set(handler, limiter(limit))
  return handler
}

export const limitBodies = (app: App): void => {
  const byDefault = limiter({
    maxBytes: MAX_BODY_BYTES,
    refuse: (c) => c.json({ status: Status.invalidPayload, success: false, msg: texts.bodyTooLarge, data: null }, 413),
  })
  app.use('*', (c, next) => {
    const own = matchedRoutes(c).map((r) => declared.get(r.handler)).find((l) => l !== undefined)
    return (own ?? byDefault)(c, next)
  })
}
