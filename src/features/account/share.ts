// Sharing the invitation link: the Web Share sheet where the browser has one, else the clipboard.
export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed'

interface ShareEnv {
  readonly share?: ((data: { title?: string; url?: string }) => Promise<void>) | undefined
  readonly copy?: ((text: string) => Promise<void>) | undefined
}

const browserEnv = (): ShareEnv => ({
  share: typeof navigator.share === 'function' ? (d) => navigator.share(d) : undefined,
  copy: navigator.clipboard ? (text) => navigator.clipboard.writeText(text) : undefined,
})

export const shareLink = async (url: string, title: string, env: ShareEnv = browserEnv()): Promise<ShareOutcome> => {
  if (env.share) {
    try {
      await env.share({ title, url })
      return 'shared'
    } catch (error) {
      // the user closed the sheet: nothing to report; any other failure falls back to copying
      if (error instanceof Error && error.name === 'AbortError') return 'cancelled'
    }
  }
  if (!env.copy) return 'failed'
  try {
    await env.copy(url)
    return 'copied'
  } catch {
    return 'failed'
  }
}
