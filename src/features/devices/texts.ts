// The device screens' strings live in the i18n catalogue (zhCN.devices); this name keeps existing imports working.
import { zhCN } from '../../i18n/zh-CN.ts'

export const devicesText = zhCN.devices
