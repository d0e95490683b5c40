// The whole HTTP endpoint catalogue, keyed by name: what `call(name, payload)` accepts and the server implements. The
// WeChat mini program's login calls (applet.ts) are not this web client's and are not in it: the server imports them.
import { sessionEndpoints } from './session.ts'
import { deviceEndpoints } from './devices.ts'
import { payEndpoints } from './pay.ts'
import { systemEndpoints } from './system.ts'
import { messageEndpoints } from './messages.ts'
import { accountEndpoints } from './account.ts'
import { payH5Endpoints } from './pay-h5.ts'
import { mealRulesEndpoints } from './meal-rules.ts'
import { activityEndpoints } from './activity.ts'
import { analyticsEndpoints } from './analytics.ts'
import { fileEndpoints } from './files.ts'
import { registerSwitchEndpoints } from './register-switch.ts'
import { groupEndpoints } from './group.ts'

export const catalogue = {
  ...sessionEndpoints,
  ...deviceEndpoints,
  ...payEndpoints,
  ...systemEndpoints,
  ...messageEndpoints,
  ...accountEndpoints,
  ...payH5Endpoints,
  ...mealRulesEndpoints,
  ...activityEndpoints,
  ...analyticsEndpoints,
  ...fileEndpoints,
  ...registerSwitchEndpoints,
  ...groupEndpoints,
} as const

export type Catalogue = typeof catalogue
export type EndpointName = keyof Catalogue
