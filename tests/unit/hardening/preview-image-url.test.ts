// Issue 22 finding 14: /preview-image shows only images of the app's own origin (its file host included), never
// another site's picture inside the app's chrome.
import { describe, expect, it } from 'vitest'
import { previewImageUrls, sameOriginImageUrl } from '../../../src/lib/preview-image.ts'

const origin = 'https://phone.example.com'

describe('preview image url', () => {
  it('shows the app\'s own images: the file host\'s by absolute URL or path', () => {
    const image = `${origin}/api/document/newFile/image?fileKey=abc`
    expect(sameOriginImageUrl(image, origin)).toBe(image)
    expect(sameOriginImageUrl('/api/document/newFile/image?fileKey=abc', origin)).toBe(image)
    expect(previewImageUrls({ urls: `${image},/cloud/phone/web/logo.png` }, origin))
      .toEqual([image, `${origin}/cloud/phone/web/logo.png`])
  })

  it('refuses another origin\'s image, however it is written', () => {
    for (const url of [
      'https://evil.example/qr.png', 'http://phone.example.com/api/x.png', 'https://phone.example.com.evil.example/qr.png',
      '//evil.example/qr.png', '/\\evil.example/qr.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'qr.png', '',
    ]) expect(sameOriginImageUrl(url, origin)).toBeNull()
    expect(previewImageUrls({ url: 'https://evil.example/qr.png' }, origin)).toEqual([])
    expect(previewImageUrls({ urls: `https://evil.example/qr.png,${origin}/a.png` }, origin)).toEqual([`${origin}/a.png`])
  })
})
