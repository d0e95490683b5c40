// A URL the server hands the tab to open or send to: resolved against this page (the reference server answers with
// paths on its own origin, which is the app's), and only ever http(s).
export const resolveHttpUrl = (url: string, here: string): string | null => {
  try {
    const resolved = new URL(url, here)
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : null
  } catch {
    return null
  }
}
