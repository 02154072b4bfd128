// `/subscribe/error/`: where a plain HTML signup form lands (subscribe's 303); static, works without JavaScript.
import SubscribeOutcome from '../../components/public/SubscribeOutcome';

export default function SubscribeOutcomePage() {
  return <SubscribeOutcome kind="error" />;
}
