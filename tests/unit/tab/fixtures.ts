// Shared test values: a device, a snapshot and session shapes.
import type { Device } from '../../../worker/protocol/devices.ts'
import type { Snapshot } from '../../../worker/protocol/commands.ts'
import type { SessionSlice as SessionState } from '../../../worker/protocol/projection/index.ts'

export const device = (over: Partial<Device> = {}): Device => ({
  id: 1, userCardId: 101, diskName: '云手机1', buyVipType: 'VIP', validTime: 10_000, phoneAuthStatus: 0, authPhone: 0,
  room: 'r1', freeTrial: 0, userName: 'demo', phoneType: 'P1', androidVersion: '10', previewUrl: 'https://img.example/p.png',
  ...over,
})

export const snapshot = (over: Partial<Snapshot> = {}): Snapshot => ({
  seq: 7,
  session: { loggedIn: true, user: { username: 'demo', userType: 1, phone: '13800138000' }, phone: '13800138000', ended: null },
  devices: { list: [device()], fetchedAt: 1000, loading: false, error: null },
  mealTypes: [{ label: 'P1', value: 'P1', previewUrl: '/x.png', index: 0, androidVersions: [] }],
  maintenance: { msg: { maintenanceSwitch: false, maintenanceContent: '', showTime: '' }, period: 0 },
  push: { status: 'open', reconnectAttempts: 0 },
  counters: { my: 2, activationCode: 1, coupon: 1 },
  announcementActive: true,
  systemName: '星云',
  avatar: null,
  homeView: { mode: 'list', columns: 3 },
  group: { commands: [] },
  ...over,
})

export const visitor: SessionState = { loggedIn: false, user: null, phone: null, ended: null }
export const member: SessionState = { loggedIn: true, user: { username: 'u', userType: 1, phone: '13800138000' }, phone: '13800138000', ended: null }
export const userType2: SessionState = { loggedIn: true, user: { username: 'u', userType: 2, phone: '13800138000' }, phone: '13800138000', ended: null }
export const wechatPhone: SessionState = { loggedIn: true, user: { username: 'u', userType: 1, phone: 'wx_abc' }, phone: 'wx_abc', ended: null }
