// Table types of the cluster migration (050_cluster), added to the core database type.
import type { ColumnType, Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export interface ServerInstancesTable {
  id: string
  url: string
  pid: number
  started_at: Timestamp
  heartbeat_at: Timestamp
  push_stats: ColumnType<unknown, string | null | undefined, string | null>
}

export interface PushPayloadsTable {
  id: ColumnType<string, never, never>
  frame: string
  created_at: Timestamp
}

export interface ServerSecretsTable {
  name: string
  value: string
}

export type ClusterTables = { server_instances: ServerInstancesTable; push_payloads: PushPayloadsTable; server_secrets: ServerSecretsTable }

export type ClusterDb = Kysely<Database & ClusterTables>

export const clusterDb = (db: Kysely<Database>): ClusterDb => db.withTables<ClusterTables>()
