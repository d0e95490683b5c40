// The sections of the catalogue `zhCN` (zh-CN.ts), each from the module of the screens that read it.
export { app, shell, sessionNotices, screen } from './zh-CN.app.ts'
export { validators, login } from './zh-CN.login.ts'
export { smsCode, auth, bindPhone, cover } from './zh-CN.auth.ts'
export { home, notices } from './zh-CN.home.ts'
export { loadMore, backToTop } from './zh-CN.kit.ts'
export { adView, placeholder, screens } from './zh-CN.screens.ts'
/** The device list's display rules and every device screen. */
export { devicesZhCN as devices } from './zh-CN.devices.ts'
export { payZhCN as pay } from './zh-CN.pay.ts'
export { accountZhCN as account } from './zh-CN.account.ts'
export { activityZhCN as activity } from './zh-CN.activity.ts'
export { filesZhCN as files } from './zh-CN.files.ts'
/** The core's strings (the worker's catalogue, worker/texts.ts). */
export { core, dialog } from '../../worker/texts.ts'
