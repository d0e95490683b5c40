// The reference server's file host is `{origin}/api`, the origin being the server's own (http/origin.ts: forwarded
// headers only from trusted balancers).
import type { Context } from 'hono'
import { originOf } from '../http/origin.ts'

export const fileHostOf = (c: Context): string => `${originOf(c)}/api`
