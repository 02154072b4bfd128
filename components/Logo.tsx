// The site's logo: the owner's image from the media bucket (through the Storage image loader) or
// the built-in Postbox mark (an envelope on an indigo tile). Decorative: the site name sits beside it.
// A plain <img> with 1x/2x sources from the same loader next/image would use: a fixed-size logo
// needs none of next/image's runtime, which every public page would otherwise download.
import imageLoader from '../lib/image-loader';

export default function Logo({
  size = 56,
  className,
  src,
}: {
  size?: number;
  className?: string;
  /** `media/<path>` of an uploaded logo; without it the built-in mark is drawn. */
  src?: string | null;
}) {
  if (src) {
    return (
      <img
        className={className}
        src={imageLoader({ src, width: size })}
        srcSet={`${imageLoader({ src, width: size })} 1x, ${imageLoader({ src, width: size * 2 })} 2x`}
        alt=""
        width={size}
        height={size}
        style={{ objectFit: 'contain' }}
        fetchPriority="high"
        decoding="async"
      />
    );
  }
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <linearGradient id="postbox-logo-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#4338ca" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="url(#postbox-logo-bg)" />
      <rect x="14" y="19" width="36" height="26" rx="5" fill="#fff" />
      <path
        d="M16 22.5 32 34l16-11.5"
        fill="none"
        stroke="#4f46e5"
        strokeWidth="3.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
