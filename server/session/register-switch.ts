// The password registration switch: read by getPasswordRegisterSwitch, and enforced in front of the registration
// endpoint (registered before it, so the refusal runs first).
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { REGISTER_CLOSED } from '../../worker/protocol/register-switch.ts'
import type { ServerContext } from '../context.ts'
import { Status } from '../http/errors.ts'
import { failure } from '../http/route.ts'
import { readSwitch } from '../system/switches.ts'

export const registerPasswordRegisterSwitch = (ctx: ServerContext): void => {
  const { app, db, publicRoute } = ctx
  publicRoute(app, catalogue.getPasswordRegisterSwitch, () => readSwitch(db, 'register'))
  app.use(catalogue.register.path, async (c, next) => {
    if (c.req.method === catalogue.register.method && !(await readSwitch(db, 'register'))) return failure(c, Status.forbidden, REGISTER_CLOSED)
    await next()
  })
}
