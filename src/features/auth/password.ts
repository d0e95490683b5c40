// A new password as the backend expects it, for the one call the tab sends itself (password reset): the core's
// public key, then the same RSA-over-MD5 encryption the core uses for login and registration, loaded only when needed.
import type { CoreClient } from '../../core/types.ts'

export const encryptForServer = async (api: CoreClient['api'], password: string): Promise<string | null> => {
  const key = await api.call('getPbKey')
  if (!key.ok || typeof key.data !== 'string') return null
  try {
    const { encryptPassword } = await import('../../../worker/session/password.ts')
    return encryptPassword(key.data, password)
  } catch {
    return null
  }
}
