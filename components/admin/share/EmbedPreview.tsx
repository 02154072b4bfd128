// The live preview: the real /embed/ page in an iframe, sized by the same height message the
// snippet's script listens for (only from this site's origin, only from this iframe).
import { useEffect, useRef, useState } from 'react';
import { EMBED_HEIGHT_MESSAGE } from '../../embed/options';
import styles from './Share.module.css';

export default function EmbedPreview({ src, title }: { src: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(460);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; height?: unknown } | null;
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow)
        return;
      if (!data || data.type !== EMBED_HEIGHT_MESSAGE || typeof data.height !== 'number') return;
      if (data.height > 0 && data.height < 10000) setHeight(Math.ceil(data.height));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return (
    <iframe
      ref={frame}
      key={src}
      src={src}
      title={title}
      className={styles.preview}
      style={{ height }}
    />
  );
}
