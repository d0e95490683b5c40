// Registers every device-operation endpoint of the catalogue, and the simulated device stream whose websocket
// upgrades the server hands to `handleUpgrade`.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { PushHub, ServerContext } from '../context.ts'
import { bulk } from './bulk.ts'
import { makeClock, type DeviceClockOptions } from './clock.ts'
import { commonUserCards } from './common-cards.ts'
import { getParams, manufacturers, modelsOf, restoreParams, updateParams } from './model-params.ts'
import { connect, reboot, repair, reset } from './operations.ts'
import { GROUP_PURGE_MS, groupCommand, purgeGroupLedger } from './group.ts'
import { createRateLimit } from '../security/throttle.ts'
import { authDetails, authorise, authRecords, cancelAuth } from './phone-auth.ts'
import { replaceDevice, replacementRecords } from './replacement.ts'
import type { DeviceServices } from './services.ts'
import { sharedSecret } from '../cluster/secrets.ts'
import { clusterDb } from '../cluster/tables.ts'
import { streamAcrossInstances } from './sim/across-instances.ts'
import { createPhoneLeases } from './sim/leases.ts'
import { createStreamServer, type LocalStreamServer, type StreamServer } from './sim/stream-server.ts'
import { devicesDb } from './tables.ts'
import { timingRecords } from './timing.ts'
import { transferDevices, transferRecords } from './transfer.ts'
import { originOf } from '../http/origin.ts'
import { chunkRows, type PhoneFileBytes } from '../files/phone-file-bytes.ts'

export { seedDeviceDemoData } from './seed.ts'

export interface DeviceRoutes {
  /** true when the upgrade was the phone stream's (taken); false leaves the socket to other listeners. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
  close(): Promise<void>
  /** the phone stream (installApp / addFile for the file routes). */
  readonly stream: StreamServer
  /** this instance's part of it (the operator's view). */
  readonly local: LocalStreamServer
}

/**
 * Test-only shortening of the busy windows comes from here (server/main.ts passes DEVICE_BUSY_MS / DEVICE_REBOOT_MS
 * through StartOptions.deviceClock), never from changed defaults; this module reads no environment itself, so a server
 * started inside a test process gets only what the test states.
 */
export interface DeviceRoutesOptions extends DeviceClockOptions {
  /** where phone files' bytes live (default: chunk rows in the database). */
  readonly phoneFileBytes?: PhoneFileBytes
  /** the deployment's balancers (TRUSTED_PROXIES): the phone stream counts sockets per client address behind them. */
  readonly trustedProxies?: ReadonlyArray<string>
  /** phones this instance encodes at once (MAX_ENCODING_PHONES; default in sim/stream-server.ts). */
  readonly maxEncodingPhones?: number
}

export const registerDeviceRoutes = (ctx: ServerContext, options: DeviceRoutesOptions = {}): DeviceRoutes => {
  const { app, route } = ctx
  const db = devicesDb(ctx.db)
  const { trustedProxies, maxEncodingPhones, ...clockOptions } = options
  const clock = makeClock({
    ...clockOptions,
  })
  // the phones' screens: one per phone, made by the instance holding its lease and relayed by the others
  let relaySecret: Promise<string> | null = null
  const stream = createStreamServer(db, clock, {
    // the hub is the instance's registry member (createPushHub); PushHub's type does not show its id
    leases: createPhoneLeases(ctx.db, () => (ctx.hub as PushHub & { readonly instanceId: string }).instanceId),
    relaySecret: () => (relaySecret ??= sharedSecret(clusterDb(ctx.db), 'phone-stream-relay')),
    ...(trustedProxies ? { trustedProxies } : {}),
    ...(maxEncodingPhones !== undefined ? { maxEncodingPhones } : {}),
  })
  const sim = streamAcrossInstances(stream, ctx.cluster)
  const s: DeviceServices = { db, clock, hub: ctx.hub, sim, files: options.phoneFileBytes ?? chunkRows(ctx.db) }
  const c = catalogue

  route(app, c.connect, ({ payload, user, c: hc }) => connect(s, user, payload.userCardId, originOf(hc)))
  route(app, c.rebootDevice, ({ payload, user }) => reboot(s, user, payload.userCardId))
  route(app, c.resetDevice, ({ payload, user }) => reset(s, user, payload.userCardId))
  route(app, c.oneKeyRepair, ({ payload, user }) => repair(s, user, payload.userCardId))
  route(app, c.bulkReboot, ({ payload, user }) => bulk(s, user, payload.userCardIds, reboot))
  route(app, c.bulkReset, ({ payload, user }) => bulk(s, user, payload.userCardIds, reset))
  const groupRate = createRateLimit(ctx.db)
  route(app, c.groupCommand, ({ payload, user }) => groupCommand(s, user, payload, groupRate))
  // the ledger does not pile up (every instance purges; the delete is idempotent)
  const ledgerPurge = setInterval(() => void purgeGroupLedger(db).catch(() => undefined), GROUP_PURGE_MS)
  ledgerPurge.unref()
  route(app, c.replaceDevice, ({ payload, user }) => replaceDevice(s, user, payload.userCardId))
  route(app, c.replacementRecords, ({ user }) => replacementRecords(s, user))
  route(app, c.getCommonUserCard, ({ user }) => commonUserCards(s, user))
  route(app, c.transferDevices, ({ payload, user }) => transferDevices(s, user, payload.userCardIds, payload.phone))
  route(app, c.transferRecords, ({ payload, user }) => transferRecords(s, user, payload.pageNum, payload.pageSize))
  route(app, c.timingRecords, ({ payload, user }) => timingRecords(s, user, payload.pageNum, payload.pageSize, payload.userCardId))
  route(app, c.getPhoneAuthNewRecord, ({ payload, user }) => authRecords(s, user, payload.authType))
  route(app, c.phoneAuthDetails, ({ payload, user }) => authDetails(s, user, payload.id))
  route(app, c.cancelPhoneAuth, ({ payload, user }) => cancelAuth(s, user, payload.id))
  route(app, c.setPhoneAuthUserPhone, ({ payload, user }) => authorise(s, user, payload.userCardId, payload.phone))
  route(app, c.getUserCardModelParameters, ({ payload, user }) => getParams(s, user, payload.userCardId))
  route(app, c.getManufacturer, () => manufacturers(s))
  route(app, c.getModelParameters, ({ payload }) => modelsOf(s, payload.manufacturer))
  route(app, c.updateModelParameters, ({ payload, user }) =>
    updateParams(s, user, payload.userCardId, payload.manufacturer, payload.model))
  route(app, c.restoreModelParameters, ({ payload, user }) => restoreParams(s, user, payload.userCardId))

  const close = (): Promise<void> => {
    clearInterval(ledgerPurge)
    return sim.close()
  }
  return { handleUpgrade: sim.handleUpgrade, close, stream: sim, local: stream }
}
