// A hand-written horizontal bar chart (no chart library): one row per label, one bar per series.

export interface BarRow {
  readonly label: string
  readonly values: ReadonlyArray<number | null>
}

const COLORS = ['#3c9cff', '#f59e0b', '#10b981', '#ef4444']
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export const barChart = (title: string, series: ReadonlyArray<string>, rows: ReadonlyArray<BarRow>, unit: string): string => {
  const labelW = 250
  const plotW = 520
  const barH = 10
  const rowH = series.length * (barH + 2) + 10
  const top = 48
  const height = top + rows.length * rowH + 30
  const max = Math.max(1e-9, ...rows.flatMap((r) => r.values.filter((v): v is number => v !== null && Number.isFinite(v))))
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + plotW + 90}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ]
  series.forEach((name, i) => {
    out.push(`<rect x="${10 + i * 150}" y="28" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/>`)
    out.push(`<text x="${24 + i * 150}" y="37">${esc(name)}</text>`)
  })
  rows.forEach((row, r) => {
    const y = top + r * rowH
    out.push(`<text x="${labelW - 6}" y="${y + rowH / 2}" text-anchor="end">${esc(row.label)}</text>`)
    row.values.forEach((v, i) => {
      const by = y + i * (barH + 2)
      if (v === null || !Number.isFinite(v)) {
        out.push(`<text x="${labelW + 2}" y="${by + barH - 1}" fill="#999">n/a</text>`)
        return
      }
      const w = Math.max(1, (v / max) * plotW)
      out.push(`<rect x="${labelW}" y="${by}" width="${w.toFixed(1)}" height="${barH}" fill="${COLORS[i % COLORS.length]}"/>`)
      out.push(`<text x="${(labelW + w + 4).toFixed(1)}" y="${by + barH - 1}">${v.toFixed(3)} ${esc(unit)}</text>`)
    })
  })
  out.push(`<line x1="${labelW}" y1="${top - 4}" x2="${labelW}" y2="${height - 26}" stroke="#333"/>`)
  out.push('</svg>')
  return out.join('\n')
}
