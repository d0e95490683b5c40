// Display rules of a device row (api-notes "Devices"): remaining-time text and tone, authorisation marker, preview.
import type { Device } from '../../../worker/protocol/devices.ts'
import { DEFAULT_PHONE_IMAGE_URL, DEFAULT_PHONE_TYPE_IMAGE_URL, VALID_TIME_WARN_MINUTES } from '../../../worker/protocol/constants.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { AuthDirection, PhoneAuthStatus } from '../../../worker/protocol/domain.ts'

const MINUTES_PER_DAY = 1440
const MINUTES_PER_HOUR = 60

export const isExpired = (validTime: number): boolean => validTime <= 0

/** "剩X天Y小时"; when days = 0 hours and minutes ("剩5小时20分钟", "剩20分钟"); "已过期" at <= 0. */
export const remainingText = (validTime: number): string => {
  if (isExpired(validTime)) return zhCN.devices.expired
  const total = Math.floor(validTime)
  const days = Math.floor(total / MINUTES_PER_DAY)
  const hours = Math.floor((total % MINUTES_PER_DAY) / MINUTES_PER_HOUR)
  const minutes = total % MINUTES_PER_HOUR
  if (days > 0) return zhCN.devices.remainingDaysHours(days, hours)
  if (hours > 0) return zhCN.devices.remainingHoursMinutes(hours, minutes)
  return zhCN.devices.remainingMinutes(minutes)
}

export type RemainingTone = 'normal' | 'warning' | 'expired'

/** Red (warning) at or below 3 days, expired at <= 0. */
export const remainingTone = (validTime: number): RemainingTone =>
  isExpired(validTime) ? 'expired' : validTime <= VALID_TIME_WARN_MINUTES ? 'warning' : 'normal'

export type AuthMarker = 'authorisedToMe' | 'authorisedByMe'

export const authMarker = (device: Pick<Device, 'phoneAuthStatus' | 'authPhone'>): AuthMarker | null => {
  if (device.phoneAuthStatus !== PhoneAuthStatus.authorised) return null
  return device.authPhone === AuthDirection.toMe ? 'authorisedToMe' : 'authorisedByMe'
}

export const authMarkerText = (marker: AuthMarker): string => zhCN.devices[marker]

/** The core already maps the special previewUrl values; this keeps a row correct if one slips through or is empty. */
export const previewSrc = (previewUrl: string): string => {
  if (previewUrl === '' || previewUrl === 'default') return DEFAULT_PHONE_IMAGE_URL
  if (previewUrl === 'defaultPhonePreviewUrl') return DEFAULT_PHONE_TYPE_IMAGE_URL
  return previewUrl
}
