// Refuses request bodies over 64 KiB before anything reads them (issue 11 finding 2): the declared length is checked
// first and a streamed body is cut off as soon as it passes the limit. A route that takes more (the avatar upload)
// sets its own limit on its own path and is named here by that path, the one constant both use.
import { bodyLimit } from 'hono/body-limit'
import type { App } from '../context.ts'
import { texts } from '../security/texts.ts'
import { Status } from './errors.ts'
import { UPLOAD_PATH } from '../files/routes.ts'

export const MAX_BODY_BYTES = 64 * 1024

/** Paths under which a route sets a larger limit of its own (the avatar upload's bodyLimit in files/routes.ts). */
const OWN_LIMIT_PATHS: ReadonlyArray<string> = [`${UPLOAD_PATH}/`]

export const limitBodies = (app: App): void => {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    // the rest of the body is never read, so the connection cannot serve another request: close it
    onError: (c) => c.json({ status: Status.invalidPayload, success: false, msg: texts.bodyTooLarge, data: null }, 413, { Connection: 'close' }),
  })
  app.use('*', (c, next) => (OWN_LIMIT_PATHS.some((p) => c.req.path.startsWith(p)) ? next() : limit(c, next)))
}
