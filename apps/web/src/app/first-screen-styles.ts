// What the first screen (the sign-in page, its layout, the start-up splash and the error page) needs
// of Mantine's CSS, instead of the whole 295 kB stylesheet (decision 010). The rest comes with the
// screens that use it (`full-styles.ts`). Layered (`@layer mantine`), so the cascade does not depend
// on which file arrived first: our own CSS modules always win over Mantine's rules, as before.
// Order as Mantine documents it: the global files, then each component after those it builds on.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/core/styles/Center.layer.css';
