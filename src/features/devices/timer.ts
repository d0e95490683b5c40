// Shutdown timer display (spec §3, decisions.md): type 1 特权定时, 2 and 3 普通定时; durations in the largest units
// that apply (2天3小时, 45分钟).
import { devicesZhCN as t } from '../../i18n/zh-CN.devices.ts'

export const timerTypeLabel = (timerType: number): string => (timerType === 1 ? t.timer.privileged : t.timer.ordinary)

/** Whole minutes as days/hours/minutes, leading with the largest non-zero unit and dropping zero parts. */
export const formatDuration = (minutes: number): string => {
  const total = Math.max(0, Math.floor(minutes))
  if (total === 0) return `0${t.timer.minute}`
  const days = Math.floor(total / 1440)
  const hours = Math.floor((total % 1440) / 60)
  const mins = total % 60
  return [
    days > 0 ? `${days}${t.timer.day}` : '',
    hours > 0 ? `${hours}${t.timer.hour}` : '',
    mins > 0 ? `${mins}${t.timer.minute}` : '',
  ].join('')
}
