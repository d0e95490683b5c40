// A request that reboots, resets, replaces, transfers, de-authorises or uploads to a device may land on any instance,
// while the phone's viewers sit on several: kicks, resets and the phone's new apps and files go to every instance
// (ClusterEvents), each applying them to the channels and phone state it holds (the screen's owner, and the instances
// relaying it to their sockets).
import type { StreamCloseReason } from '../../../worker/protocol/stream.ts'
import type { ClusterEvents } from '../../context.ts'
import { SESSIONS_ENDED_TOPIC, type SessionsEnded } from '../../session/tokens.ts'
import type { StreamServer } from './stream-server.ts'

const TOPIC = 'phone-stream'

type StreamEvent =
  | { readonly kind: 'kick'; readonly deviceId: number; readonly reason: StreamCloseReason; readonly userId?: number }
  | { readonly kind: 'reset'; readonly deviceId: number }
  | { readonly kind: 'install'; readonly deviceId: number; readonly name: string }
  | { readonly kind: 'file'; readonly deviceId: number; readonly name: string; readonly size: number }
  | { readonly kind: 'text'; readonly deviceId: number; readonly text: string; readonly paste: boolean }

export const streamAcrossInstances = (local: StreamServer, cluster: ClusterEvents): StreamServer => {
  cluster.subscribe(TOPIC, (payload) => {
    const event = payload as StreamEvent
    if (event.kind === 'kick') local.kick(event.deviceId, event.reason, event.userId)
    else if (event.kind === 'reset') local.resetPhone(event.deviceId)
    else if (event.kind === 'install') local.installApp(event.deviceId, event.name)
    else if (event.kind === 'text') local.typeText(event.deviceId, event.text, event.paste)
    else local.addFile(event.deviceId, event.name, event.size)
  })
  // a logout or password reset on any instance (session/tokens.ts closeRevoked): its card tokens' channels close here
  cluster.subscribe(SESSIONS_ENDED_TOPIC, (payload) => local.endSessions((payload as SessionsEnded).digests))
  // this instance's channels are handled before publish resolves; the others' follow on the bus
  const publish = (event: StreamEvent): void => void cluster.publish(TOPIC, event).catch(() => undefined)
  return {
    handleUpgrade: (request, socket, head) => local.handleUpgrade(request, socket, head),
    kick: (deviceId, reason, userId) => publish(userId === undefined ? { kind: 'kick', deviceId, reason } : { kind: 'kick', deviceId, reason, userId }),
    resetPhone: (deviceId) => publish({ kind: 'reset', deviceId }),
    installApp: (deviceId, name) => publish({ kind: 'install', deviceId, name }),
    addFile: (deviceId, name, size) => publish({ kind: 'file', deviceId, name, size }),
    typeText: (deviceId, text, paste) => publish({ kind: 'text', deviceId, text, paste }),
    endSessions: (digests) => void cluster.publish(SESSIONS_ENDED_TOPIC, { digests } satisfies SessionsEnded).catch(() => undefined),
    viewerCount: (deviceId) => local.viewerCount(deviceId),
    close: () => local.close(),
  }
}
