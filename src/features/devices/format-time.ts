// Record times as the screens show them: ISO from the server to local "YYYY-MM-DD HH:mm".
const pad = (n: number) => String(n).padStart(2, '0')

export const formatTime = (iso: string | null): string => {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
