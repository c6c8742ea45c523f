import {
  Badge,
  Box,
  Button,
  chakra,
  Code,
  Container,
  Grid,
  Heading,
  HStack,
  Link as ChakraLink,
  List,
  Stack,
  Table,
  Tabs,
  Text,
  useClipboard,
} from '@chakra-ui/react'
import { useEffect, type ComponentType, type ReactNode } from 'react'
import { LuCheck, LuCopy, LuKeyRound } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useLinkResolver } from '@/components/layout/link-target'
import { getLanguage } from '@/lib/cookies'
import type { TranslateFn } from '@/lib/i18n'
import {
  ACCESS_TYPES,
  ccxtExample,
  ccxtProExample,
  curlExample,
  ENDPOINT_GROUPS,
  ERROR_CODES,
  EXECUTION_FIELDS,
  EXECUTION_REPORT_EXAMPLE,
  EXECUTION_TYPES,
  KLINE_INTERVALS,
  MAX_STREAMS_PER_CONNECTION,
  mirroredEndpoint,
  ORDER_STATUSES,
  ORDER_TYPES,
  PERMISSIONS,
  STREAM_FRAMES,
  STREAMS,
  USER_EVENTS,
  WS_API_EXAMPLES,
  WS_API_IN_FLIGHT,
  WS_API_METHODS,
  WS_API_PATH,
  WS_SESSION_METHODS,
  WS_SESSION_WEIGHT,
  wsApiExample,
  wsOrigin,
  type Endpoint,
} from '../lib/open-api-reference'
import { loadOpenApiTextsFor, useOpenApiTexts } from '../lib/open-api-texts'

/**
 * The Open API documentation (/{lan}/api): what the Binance-compatible API
 * is, keys, permissions, the base URL, endpoints, signing, orders,
 * withdrawals, the WebSocket market streams, the WebSocket API, the user
 * data streams, limits, error codes and copyable curl and CCXT examples.
 * Paths, parameters, Binance's messages and code stay as they are in every
 * language; the texts (content page 'openApi') explain them.
 */

/** Sections in page order: anchor id and text key. */
const SECTIONS = [
  { id: 'overview', key: 'overview' },
  { id: 'keys', key: 'keys' },
  { id: 'permissions', key: 'permissions' },
  { id: 'base-url', key: 'baseUrl' },
  { id: 'endpoints', key: 'endpoints' },
  { id: 'signing', key: 'signing' },
  { id: 'orders', key: 'orders' },
  { id: 'withdrawals', key: 'withdrawals' },
  { id: 'websocket-streams', key: 'wsStreams' },
  { id: 'websocket-api', key: 'wsApi' },
  { id: 'user-data', key: 'userData' },
  { id: 'limits', key: 'limits' },
  { id: 'errors', key: 'errors' },
  { id: 'examples', key: 'examples' },
] as const
type SectionKey = (typeof SECTIONS)[number]['key']

/** Copy-button checkmark time, as the app's other copy buttons (spec §4, §9). */
const COPIED_MS = 3000

/** Where the API keys are managed. */
const API_KEYS_PATH = '/profile/api'

/** Heading offset under the sticky desktop navbar and the fixed mobile header. */
const SCROLL_MARGIN = { base: '20', lg: '24' }

/** Text with `code` spans: backtick-quoted parts render as inline code. */
function Rich({ text }: { text: string }) {
  const parts = text.split('`')
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Code key={i} size="sm" overflowWrap="anywhere">
            {part}
          </Code>
        ) : (
          part
        ),
      )}
    </>
  )
}

function Para({ children }: { children: string }) {
  return (
    <Text lineHeight="tall">
      <Rich text={children} />
    </Text>
  )
}

/** A section with its h2 and a link to its anchor. */
function Section({ id, title, t, children }: { id: string; title: string; t: TranslateFn; children: ReactNode }) {
  const headingId = `${id}-title`
  return (
    <Stack as="section" id={id} aria-labelledby={headingId} gap="4" scrollMarginTop={SCROLL_MARGIN} className="group">
      <HStack gap="2" align="baseline">
        <Heading as="h2" id={headingId} size={{ base: 'xl', md: '2xl' }}>
          {title}
        </Heading>
        <chakra.a
          href={`#${id}`}
          aria-label={t('anchor', { title })}
          color="fg.muted"
          opacity={{ base: 1, lg: 0 }}
          _groupHover={{ opacity: 1 }}
          _focusVisible={{ opacity: 1 }}
          textDecoration="none"
        >
          #
        </chakra.a>
      </HStack>
      {children}
    </Stack>
  )
}

function SubHeading({ children }: { children: string }) {
  return (
    <Heading as="h3" size="md" mt="2">
      {children}
    </Heading>
  )
}

/**
 * A table that scrolls sideways inside its own box on a narrow screen. Its
 * text wraps (Chakra's scroll area would keep every cell on one line): the
 * columns of prose have a minimum width, names and code keep their line.
 */
function DocTable({
  caption,
  testId,
  children,
}: {
  caption: string
  testId: string
  children: ReactNode
}) {
  return (
    <Table.ScrollArea borderWidth="1px" rounded="md" data-testid={testId}>
      <Table.Root size="sm" variant="line" whiteSpace="normal">
        <Table.Caption srOnly>{caption}</Table.Caption>
        {children}
      </Table.Root>
    </Table.ScrollArea>
  )
}

/** A code block with its name and a copy button. */
function CodeBlock({ code, name, t, testId }: { code: string; name: string; t: TranslateFn; testId: string }) {
  const clipboard = useClipboard({ value: code, timeout: COPIED_MS })
  return (
    <Box borderWidth="1px" rounded="md" overflow="hidden" data-testid={testId}>
      <HStack justify="space-between" gap="2" px="3" py="1.5" bg="bg.subtle" borderBottomWidth="1px">
        <Text textStyle="xs" color="fg.muted" fontWeight="medium" truncate>
          {name}
        </Text>
        <Button
          size="xs"
          variant="ghost"
          flexShrink={0}
          onClick={() => clipboard.copy()}
          aria-label={t('copyNamed', { name })}
          aria-live="polite"
          data-testid={`${testId}-copy`}
        >
          {clipboard.copied ? <LuCheck aria-hidden="true" /> : <LuCopy aria-hidden="true" />}
          {clipboard.copied ? t('copied') : t('copy')}
        </Button>
      </HStack>
      <Box
        as="pre"
        m="0"
        p="4"
        overflowX="auto"
        bg="bg.muted"
        fontFamily="mono"
        fontSize="sm"
        lineHeight="tall"
        tabIndex={0}
        aria-label={name}
      >
        <code>{code}</code>
      </Box>
    </Box>
  )
}

const METHOD_PALETTE: Record<Endpoint['method'], string> = { GET: 'blue', POST: 'green', PUT: 'orange', DELETE: 'red' }

function MethodBadge({ method }: { method: Endpoint['method'] }) {
  return (
    <Badge size="sm" variant="subtle" colorPalette={METHOD_PALETTE[method]} fontFamily="mono">
      {method}
    </Badge>
  )
}

/** A table cell holding code that keeps its line (the table scrolls instead). */
function CodeCell({ children }: { children: string }) {
  return (
    <Table.Cell>
      <Code size="sm" whiteSpace="nowrap">
        {children}
      </Code>
    </Table.Cell>
  )
}

/** A table cell holding a JSON frame: monospace, wrapped anywhere. */
function FrameCell({ children }: { children: string }) {
  return (
    <Table.Cell fontFamily="mono" textStyle="xs" overflowWrap="anywhere" lang="en">
      {children}
    </Table.Cell>
  )
}

/** A numbered list of texts with `code` spans. */
function Steps({ items }: { items: string[] }) {
  return (
    <List.Root as="ol" gap="2" ps="5" lineHeight="tall" listStyleType="decimal">
      {items.map((item) => (
        <List.Item key={item}>
          <Rich text={item} />
        </List.Item>
      ))}
    </List.Root>
  )
}

function EndpointTable({ t }: { t: TranslateFn }) {
  return (
    <DocTable caption={t('endpoints.caption')} testId="open-api-endpoints">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{t('endpoints.cols.method')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('endpoints.cols.path')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('endpoints.cols.access')}</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">{t('endpoints.cols.weight')}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      {ENDPOINT_GROUPS.map((group) => (
        <Table.Body key={group.id} data-testid={`open-api-endpoints-${group.id}`}>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader scope="rowgroup" colSpan={4} fontWeight="semibold">
              <Rich text={t(`endpoints.groups.${group.id}`)} />
              {group.id === 'clients' ? (
                <Text as="span" display="block" fontWeight="normal" color="fg.muted" textStyle="xs" mt="0.5">
                  {t('endpoints.clientsNote')}
                </Text>
              ) : null}
            </Table.ColumnHeader>
          </Table.Row>
          {group.endpoints.map((e) => (
            <Table.Row key={`${e.method} ${e.path}`} data-testid="open-api-endpoint">
              <Table.Cell>
                <MethodBadge method={e.method} />
              </Table.Cell>
              <Table.Cell fontFamily="mono" whiteSpace="nowrap">
                {e.path}
              </Table.Cell>
              <Table.Cell>
                <Code size="sm" whiteSpace="nowrap">
                  {e.access}
                </Code>
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {e.weight}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      ))}
    </DocTable>
  )
}

function ErrorTable({ t }: { t: TranslateFn }) {
  return (
    <DocTable caption={t('errors.caption')} testId="open-api-errors">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{t('errors.cols.code')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('errors.cols.http')}</Table.ColumnHeader>
          <Table.ColumnHeader minW="18rem">{t('errors.cols.message')}</Table.ColumnHeader>
          <Table.ColumnHeader minW="16rem">{t('errors.cols.meaning')}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {ERROR_CODES.map((e) => (
          <Table.Row key={e.code} data-testid="open-api-error" verticalAlign="top">
            <Table.Cell>
              <Code size="sm" whiteSpace="nowrap">
                {e.code}
              </Code>
            </Table.Cell>
            <Table.Cell whiteSpace="nowrap">{e.http}</Table.Cell>
            <Table.Cell>
              <Stack gap="1" lang="en">
                {e.messages.map((m) => (
                  <Text key={m} fontFamily="mono" textStyle="xs" overflowWrap="anywhere">
                    {m}
                  </Text>
                ))}
              </Stack>
            </Table.Cell>
            <Table.Cell>
              <Rich text={t(`errors.codes.${-e.code}`)} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </DocTable>
  )
}

function Bullets({ items }: { items: string[] }) {
  return (
    <List.Root gap="2" ps="5" lineHeight="tall">
      {items.map((item) => (
        <List.Item key={item}>
          <Rich text={item} />
        </List.Item>
      ))}
    </List.Root>
  )
}

/** WebSocket market streams: URLs, stream names, frames and the local order book. */
function StreamsSection({ t, ws }: { t: TranslateFn; ws: string }) {
  return (
    <Section id="websocket-streams" title={t('wsStreams.title')} t={t}>
      <Para>{t('wsStreams.p1')}</Para>
      <CodeBlock code={ws} name={t('wsStreams.urlName')} t={t} testId="open-api-ws-url" />
      <Bullets items={['raw', 'combined', 'frames'].map((k) => t(`wsStreams.urls.${k}`, { ws }))} />

      <SubHeading>{t('wsStreams.namesTitle')}</SubHeading>
      <Para>
        {t('wsStreams.namesP', { intervals: KLINE_INTERVALS.join(', '), max: MAX_STREAMS_PER_CONNECTION })}
      </Para>
      <DocTable caption={t('wsStreams.caption')} testId="open-api-streams">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('wsStreams.cols.name')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('wsStreams.cols.payload')}</Table.ColumnHeader>
            <Table.ColumnHeader minW="18rem">{t('wsStreams.cols.sends')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {STREAMS.map((st) => (
            <Table.Row key={st.id} verticalAlign="top" data-testid="open-api-stream">
              <CodeCell>{st.name}</CodeCell>
              <Table.Cell fontFamily="mono" textStyle="xs" whiteSpace="nowrap">
                {st.payload}
              </Table.Cell>
              <Table.Cell>
                <Rich text={t(`wsStreams.streams.${st.id}`)} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </DocTable>

      <SubHeading>{t('wsStreams.framesTitle')}</SubHeading>
      <Para>{t('wsStreams.framesP')}</Para>
      <DocTable caption={t('wsStreams.framesCaption')} testId="open-api-stream-frames">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader minW="18rem">{t('wsStreams.framesCols.frame')}</Table.ColumnHeader>
            <Table.ColumnHeader minW="12rem">{t('wsStreams.framesCols.answer')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {STREAM_FRAMES.map((f) => (
            <Table.Row key={f.frame} verticalAlign="top">
              <FrameCell>{f.frame}</FrameCell>
              <FrameCell>{f.answer}</FrameCell>
            </Table.Row>
          ))}
        </Table.Body>
      </DocTable>
      <Bullets items={['framesCombined', 'framesErrors'].map((k) => t(`wsStreams.${k}`))} />

      <SubHeading>{t('wsStreams.bookTitle')}</SubHeading>
      <Para>{t('wsStreams.bookP')}</Para>
      <Steps items={['s1', 's2', 's3', 's4', 's5'].map((k) => t(`wsStreams.book.${k}`))} />
      <Para>{t('wsStreams.bookNote')}</Para>
      <Para>{t('wsStreams.keepAlive')}</Para>
    </Section>
  )
}

/** The WebSocket API: URL, request and answer, methods, signing and session.logon. */
function WsApiSection({ t, origin, ws }: { t: TranslateFn; origin: string; ws: string }) {
  const url = ws + WS_API_PATH
  return (
    <Section id="websocket-api" title={t('wsApi.title')} t={t}>
      <Para>{t('wsApi.p1')}</Para>
      <CodeBlock code={url} name={t('wsApi.urlName')} t={t} testId="open-api-ws-api-url" />

      <SubHeading>{t('wsApi.requestTitle')}</SubHeading>
      <Para>{t('wsApi.requestP')}</Para>
      <DocTable caption={t('wsApi.exampleCaption')} testId="open-api-ws-api-frames">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader minW="16rem">{t('wsApi.exampleCols.request')}</Table.ColumnHeader>
            <Table.ColumnHeader minW="20rem">{t('wsApi.exampleCols.answer')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {WS_API_EXAMPLES.map((f) => (
            <Table.Row key={f.request} verticalAlign="top">
              <FrameCell>{f.request}</FrameCell>
              <FrameCell>{f.answer}</FrameCell>
            </Table.Row>
          ))}
        </Table.Body>
      </DocTable>
      <Bullets
        items={['id', 'errors', 'rateLimits', 'weight'].map((k) =>
          t(`wsApi.items.${k}`, { url, max: WS_API_IN_FLIGHT }),
        )}
      />

      <SubHeading>{t('wsApi.methodsTitle')}</SubHeading>
      <Para>{t('wsApi.methodsP')}</Para>
      <DocTable caption={t('wsApi.methodsCaption')} testId="open-api-ws-api-methods">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('wsApi.methodsCols.method')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('wsApi.methodsCols.endpoint')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('wsApi.methodsCols.weight')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {WS_API_METHODS.map((m) => (
            <Table.Row key={m.name} data-testid="open-api-ws-api-method">
              <CodeCell>{m.name}</CodeCell>
              <Table.Cell whiteSpace="nowrap">
                <HStack gap="2">
                  <MethodBadge method={m.method} />
                  <Text as="span" fontFamily="mono">
                    {m.path}
                  </Text>
                </HStack>
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {mirroredEndpoint(m)?.weight}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </DocTable>

      <SubHeading>{t('wsApi.sessionTitle')}</SubHeading>
      <DocTable caption={t('wsApi.sessionTitle')} testId="open-api-ws-api-session">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('wsApi.methodsCols.method')}</Table.ColumnHeader>
            <Table.ColumnHeader minW="18rem">{t('wsApi.sessionCols.does')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('wsApi.methodsCols.weight')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {WS_SESSION_METHODS.map((m) => (
            <Table.Row key={m.name} verticalAlign="top" data-testid="open-api-ws-api-method">
              <CodeCell>{m.name}</CodeCell>
              <Table.Cell>
                <Rich text={t(`wsApi.session.${m.id}`)} />
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {WS_SESSION_WEIGHT}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </DocTable>

      <SubHeading>{t('wsApi.signingTitle')}</SubHeading>
      <Steps items={['s1', 's2', 's3', 's4'].map((k) => t(`wsApi.signing.${k}`))} />
      <Para>{t('wsApi.signingChecks')}</Para>
      <CodeBlock code={wsApiExample(origin)} name={t('wsApi.exampleName')} t={t} testId="open-api-example-ws-api" />
      <Para>{t('wsApi.exampleNote')}</Para>

      <SubHeading>{t('wsApi.logonTitle')}</SubHeading>
      <Para>{t('wsApi.logon.p1')}</Para>
      <Para>{t('wsApi.logon.p2')}</Para>
    </Section>
  )
}

/** User data: the two ways to receive it, the events, executionReport and CCXT Pro. */
function UserDataSection({ t, origin, ws }: { t: TranslateFn; origin: string; ws: string }) {
  return (
    <Section id="user-data" title={t('userData.title')} t={t}>
      <Para>{t('userData.p1')}</Para>

      <SubHeading>{t('userData.wsApiTitle')}</SubHeading>
      <Para>{t('userData.wsApi')}</Para>

      <SubHeading>{t('userData.listenTitle')}</SubHeading>
      <Steps items={['open', 'connect', 'keep'].map((k) => t(`userData.listen.${k}`, { ws }))} />
      <Para>{t('userData.listen.unknown')}</Para>

      <SubHeading>{t('userData.eventsTitle')}</SubHeading>
      <DocTable caption={t('userData.eventsTitle')} testId="open-api-user-events">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('userData.eventsCols.event')}</Table.ColumnHeader>
            <Table.ColumnHeader minW="18rem">{t('userData.eventsCols.when')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {USER_EVENTS.map((e) => (
            <Table.Row key={e} verticalAlign="top">
              <CodeCell>{e}</CodeCell>
              <Table.Cell>
                <Rich text={t(`userData.events.${e}`)} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </DocTable>
      <Para>{t('userData.eventsNote')}</Para>

      <SubHeading>{t('userData.execTitle')}</SubHeading>
      <Para>{t('userData.execP')}</Para>
      <DocTable caption={t('userData.execCaption')} testId="open-api-execution-types">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('userData.execCols.type')}</Table.ColumnHeader>
            <Table.ColumnHeader minW="18rem">{t('userData.execCols.meaning')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {EXECUTION_TYPES.map((x) => (
            <Table.Row key={x} verticalAlign="top">
              <CodeCell>{x}</CodeCell>
              <Table.Cell>
                <Rich text={t(`userData.exec.${x}`)} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </DocTable>
      <DocTable caption={t('userData.fieldsCaption')} testId="open-api-execution-fields">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('userData.fieldsCols.field')}</Table.ColumnHeader>
            <Table.ColumnHeader minW="18rem">{t('userData.fieldsCols.meaning')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {EXECUTION_FIELDS.map((f) => (
            <Table.Row key={f.field} verticalAlign="top">
              <CodeCell>{f.field}</CodeCell>
              <Table.Cell>
                <Rich text={t(`userData.fields.${f.id}`)} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </DocTable>
      <CodeBlock
        code={EXECUTION_REPORT_EXAMPLE}
        name={t('userData.exampleName')}
        t={t}
        testId="open-api-example-execution-report"
      />

      <SubHeading>{t('userData.ccxtTitle')}</SubHeading>
      <Para>{t('userData.ccxtP', { ws })}</Para>
      <CodeBlock code={ccxtProExample(origin)} name={t('userData.ccxtName')} t={t} testId="open-api-example-ccxt-pro" />
    </Section>
  )
}

/** The page for React.lazy, once the texts of the language in use are loaded. */
export async function loadOpenApiPage(): Promise<{ default: ComponentType }> {
  await loadOpenApiTextsFor(getLanguage())
  return { default: OpenApiPage }
}

/** The page; its texts must be loaded (loadOpenApiPage) before it renders. */
export function OpenApiPage() {
  const { t } = useOpenApiTexts()
  const resolve = useLinkResolver()
  const origin = window.location.origin
  const ws = wsOrigin(origin)
  const title = (key: SectionKey) => t(`${key}.title`)

  // A link to a section (/en_US/api#signing) arrives before this lazily
  // loaded page has rendered: scroll to it once the page is there.
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1))
    if (id) document.getElementById(id)?.scrollIntoView()
  }, [])

  return (
    <Container maxW="7xl" py={{ base: '8', md: '14' }}>
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '13rem minmax(0, 1fr)' }} gap={{ base: '0', lg: '12' }}>
        <Box
          as="nav"
          aria-labelledby="open-api-toc"
          hideBelow="lg"
          position="sticky"
          top="24"
          alignSelf="start"
          data-testid="open-api-toc"
        >
          <Text id="open-api-toc" fontWeight="semibold" textStyle="sm" mb="3">
            {t('toc')}
          </Text>
          <Stack as="ul" gap="1.5" listStyleType="none" borderStartWidth="1px" ps="3">
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <ChakraLink href={`#${s.id}`} color="fg.muted" textStyle="sm" _hover={{ color: 'fg' }}>
                  {title(s.key)}
                </ChakraLink>
              </li>
            ))}
          </Stack>
        </Box>

        <Stack as="article" gap="12" minW="0" maxW="4xl" data-testid="info-page-api">
          <Stack gap="4">
            <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
              {t('title')}
            </Heading>
            <Text fontSize="lg" color="fg.muted" lineHeight="tall">
              {t('lead')}
            </Text>
          </Stack>

          <Section id="overview" title={title('overview')} t={t}>
            <Para>{t('overview.p1')}</Para>
            <Para>{t('overview.p2')}</Para>
            <Para>{t('overview.p3')}</Para>
          </Section>

          <Section id="keys" title={title('keys')} t={t}>
            <Para>{t('keys.p1')}</Para>
            <Box>
              <Button asChild variant="outline" size="sm">
                <AppLink href={resolve(API_KEYS_PATH)} data-testid="open-api-keys-link">
                  <LuKeyRound aria-hidden="true" />
                  {t('keys.link')}
                </AppLink>
              </Button>
            </Box>
            <Bullets items={['label', 'type', 'secret', 'verify', 'instant'].map((k) => t(`keys.items.${k}`))} />
          </Section>

          <Section id="permissions" title={title('permissions')} t={t}>
            <Para>{t('permissions.p1')}</Para>
            <DocTable caption={t('permissions.caption')} testId="open-api-permissions">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('permissions.cols.permission')}</Table.ColumnHeader>
                  <Table.ColumnHeader minW="16rem">{t('permissions.cols.allows')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {PERMISSIONS.map((p) => (
                  <Table.Row key={p}>
                    <Table.Cell>
                      <Code size="sm">{p}</Code>
                    </Table.Cell>
                    <Table.Cell>
                      <Rich text={t(`permissions.perm.${p}`)} />
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </DocTable>
            <Para>{t('permissions.ip')}</Para>
            <Para>{t('permissions.tip')}</Para>
          </Section>

          <Section id="base-url" title={title('baseUrl')} t={t}>
            <Para>{t('baseUrl.p1')}</Para>
            <CodeBlock code={origin} name={t('baseUrl.name')} t={t} testId="open-api-base-url" />
            <Para>{t('baseUrl.p2', { origin })}</Para>
            <Para>{t('baseUrl.p3')}</Para>
          </Section>

          <Section id="endpoints" title={title('endpoints')} t={t}>
            <Para>{t('endpoints.p1')}</Para>
            <EndpointTable t={t} />
            <SubHeading>{t('endpoints.accessTitle')}</SubHeading>
            <List.Root gap="1.5" ps="5" lineHeight="tall">
              {ACCESS_TYPES.map((a) => (
                <List.Item key={a}>
                  <Code size="sm">{a}</Code>: <Rich text={t(`endpoints.access.${a}`)} />
                </List.Item>
              ))}
            </List.Root>
          </Section>

          <Section id="signing" title={title('signing')} t={t}>
            <Para>{t('signing.p1')}</Para>
            <List.Root as="ol" gap="2" ps="5" lineHeight="tall" listStyleType="decimal">
              {['s1', 's2', 's3', 's4', 's5', 's6', 's7'].map((s) => (
                <List.Item key={s}>
                  <Rich text={t(`signing.steps.${s}`)} />
                </List.Item>
              ))}
            </List.Root>
            <SubHeading>{t('signing.checksTitle')}</SubHeading>
            <Bullets items={['c1', 'c2', 'c3'].map((c) => t(`signing.checks.${c}`))} />
          </Section>

          <Section id="orders" title={title('orders')} t={t}>
            <Para>{t('orders.p1')}</Para>
            <SubHeading>{t('orders.typesTitle')}</SubHeading>
            <DocTable caption={t('orders.typesTitle')} testId="open-api-order-types">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('orders.cols.type')}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t('orders.cols.params')}</Table.ColumnHeader>
                  <Table.ColumnHeader minW="18rem">{t('orders.cols.meaning')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {ORDER_TYPES.map((o) => (
                  <Table.Row key={o.type} verticalAlign="top">
                    <Table.Cell>
                      <Code size="sm" whiteSpace="nowrap">
                        {o.type}
                      </Code>
                    </Table.Cell>
                    <Table.Cell>
                      <Stack gap="1" align="start">
                        {o.params.map((p) => (
                          <Code key={p} size="sm" variant="plain" whiteSpace="nowrap" px="0">
                            {p}
                          </Code>
                        ))}
                      </Stack>
                    </Table.Cell>
                    <Table.Cell>
                      <Rich text={t(`orders.types.${o.type}`)} />
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </DocTable>
            <Para>{t('orders.unsupported')}</Para>
            <Para>{t('orders.respType')}</Para>
            <Para>{t('orders.clientId')}</Para>
            <SubHeading>{t('orders.statusTitle')}</SubHeading>
            <DocTable caption={t('orders.statusTitle')} testId="open-api-statuses">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('orders.statusCols.status')}</Table.ColumnHeader>
                  <Table.ColumnHeader minW="16rem">{t('orders.statusCols.meaning')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {ORDER_STATUSES.map((s) => (
                  <Table.Row key={s}>
                    <Table.Cell>
                      <Code size="sm" whiteSpace="nowrap">
                        {s}
                      </Code>
                    </Table.Cell>
                    <Table.Cell>
                      <Rich text={t(`orders.status.${s}`)} />
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </DocTable>
          </Section>

          <Section id="withdrawals" title={title('withdrawals')} t={t}>
            <Para>{t('withdrawals.p1')}</Para>
            <Para>{t('withdrawals.p2')}</Para>
            <Para>{t('withdrawals.p3')}</Para>
          </Section>

          <StreamsSection t={t} ws={ws} />
          <WsApiSection t={t} origin={origin} ws={ws} />
          <UserDataSection t={t} origin={origin} ws={ws} />

          <Section id="limits" title={title('limits')} t={t}>
            <Bullets
              items={['weight', 'header', 'over', 'ban', 'orders', 'webSocket', 'advice'].map((k) => t(`limits.items.${k}`))}
            />
          </Section>

          <Section id="errors" title={title('errors')} t={t}>
            <Para>{t('errors.p1')}</Para>
            <ErrorTable t={t} />
          </Section>

          <Section id="examples" title={title('examples')} t={t}>
            <Para>{t('examples.p1')}</Para>
            <Tabs.Root defaultValue="curl" variant="line">
              <Tabs.List>
                <Tabs.Trigger value="curl" data-testid="open-api-tab-curl">
                  {t('examples.curl')}
                </Tabs.Trigger>
                <Tabs.Trigger value="ccxt" data-testid="open-api-tab-ccxt">
                  {t('examples.ccxt')}
                </Tabs.Trigger>
              </Tabs.List>
              <Tabs.Content value="curl">
                <Stack gap="3">
                  <Para>{t('examples.curlNote')}</Para>
                  <CodeBlock code={curlExample(origin)} name={t('examples.curl')} t={t} testId="open-api-example-curl" />
                </Stack>
              </Tabs.Content>
              <Tabs.Content value="ccxt">
                <Stack gap="3">
                  <Para>{t('examples.ccxtNote')}</Para>
                  <CodeBlock code={ccxtExample(origin)} name={t('examples.ccxt')} t={t} testId="open-api-example-ccxt" />
                </Stack>
              </Tabs.Content>
            </Tabs.Root>
          </Section>
        </Stack>
      </Grid>
    </Container>
  )
}
