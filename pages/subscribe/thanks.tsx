// `/subscribe/thanks/`: where a plain HTML signup form lands (subscribe's 303); static, works without JavaScript.
import SubscribeOutcome from '../../components/public/SubscribeOutcome';
import { identityStaticProps } from '../../lib/build/public-props';

export default function SubscribeOutcomePage() {
  return <SubscribeOutcome kind="thanks" />;
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = identityStaticProps;
