// Package keyspace declares which part of the single table each process of
// the AWS runtime may touch: the partition-key prefixes of the items it
// reads, those of the items it also writes, and the global secondary
// indexes it queries. The CDK stacks turn a declaration into the IAM
// statements of the process's role (dynamodb:LeadingKeys conditions,
// stacks.DataStack.GrantItems), and the handler tests fail when a function
// or the engine touches a key its declaration lacks (functions/fntest), so
// the grants and the code cannot drift apart.
//
// A prefix is a partition key up to and including its first "#" ("USER#"
// for "USER#42"), or the whole key when it has none ("ENGLEASE"): every
// partition of the table is named so, the kind of item before the "#" and
// its id after it.
package keyspace

import (
	"slices"
	"strings"

	"tenger/internal/store"
)

// Grant is the key space of one grantee.
type Grant struct {
	// Name is the grantee: a Lambda function's name (functions/<name>) or
	// EngineTask.
	Name string
	// Reads are the prefixes of the partitions it only reads (GetItem,
	// Query, ConditionCheckItem).
	Reads []string
	// Writes are the prefixes of the partitions it reads and writes
	// (PutItem, UpdateItem, DeleteItem too).
	Writes []string
	// Indexes are the global secondary indexes it queries
	// (store.IndexGSI1, store.IndexGSI2).
	Indexes []string
	// Feed says it reads the table's change feed through the store, whose
	// DynamoDB adapter looks the stream's ARN up with DescribeTable. No
	// process of the AWS runtime does: the stream and wfstart functions
	// are handed their records by Lambda's event source mappings.
	Feed bool
}

// EngineTask names the engine's Fargate task (engine-fargate).
const EngineTask = "engine-fargate"

// Prefix is the prefix of a partition key: up to and including its first
// "#", or the whole key when it has none.
func Prefix(pk string) string {
	if i := strings.IndexByte(pk, '#'); i >= 0 {
		return pk[:i+1]
	}
	return pk
}

// Prefixes are every prefix the grantee touches: Reads, then Writes.
func (g Grant) Prefixes() []string { return append(slices.Clone(g.Reads), g.Writes...) }

// Reading reports whether the grantee may read the partition pk of the
// table.
func (g Grant) Reading(pk string) bool {
	p := Prefix(pk)
	return slices.Contains(g.Reads, p) || slices.Contains(g.Writes, p)
}

// Writing reports whether the grantee may write the partition pk.
func (g Grant) Writing(pk string) bool { return slices.Contains(g.Writes, Prefix(pk)) }

// Queries reports whether the grantee may query the index.
func (g Grant) Queries(index string) bool { return slices.Contains(g.Indexes, index) }

// LeadingKeys are the dynamodb:LeadingKeys patterns (StringLike) of
// prefixes: "USER#*" for a prefix, the key itself for a whole key (it has
// no "#").
func LeadingKeys(prefixes []string) []string {
	out := make([]string, 0, len(prefixes))
	for _, p := range prefixes {
		if strings.HasSuffix(p, "#") {
			p += "*"
		}
		out = append(out, p)
	}
	return out
}

// Of returns the declaration of a grantee.
func Of(name string) (Grant, bool) {
	for _, g := range grants {
		if g.Name == name {
			return g, true
		}
	}
	return Grant{}, false
}

// MustOf is Of for a grantee that must be declared (the stacks' callers):
// an undeclared name is a programming error, so it panics.
func MustOf(name string) Grant {
	g, ok := Of(name)
	if !ok {
		panic("keyspace: no declaration for " + name)
	}
	return g
}

// All returns every declaration, in the order they are declared.
func All() []Grant { return slices.Clone(grants) }

// Prefixes every process reads or writes where they are kept (their
// packages' layout comments say more).
const (
	// markets' pair catalogue (CONFIG#markets, read by the catalogue
	// watcher platform.NewAWS starts in every process) and refprice's
	// pins (CONFIG#prices).
	config = "CONFIG#"
	// The engine lease (internal/engine/lease): its item names the active
	// engine's address, which platform.RemoteEngine looks up.
	engineLease = "ENGLEASE"
	// refprice's reference prices, one partition.
	refPrices = "refprice"
	// marketdata's trades, depth and candles (md#recent, md#depth,
	// md#k#<symbol>#<period>).
	marketData = "md#"
	// Connections of the web app's WebSocket API (push/apigw), and of the
	// Binance-compatible one (binance/wsapiaws' namespace "B").
	wsConn     = "WSCONN#"
	binanceWS  = "BWSCONN#"
	wsStreamCh = "BSTREAMCH"
	// The users' futures settings (internal/futures): the wallet opens
	// the account (create_co_id), the futures function keeps the page's
	// preferences.
	futuresUser = "FUSER#"
	// The operator's earn products (internal/earn): written by the admin
	// function, read by the earn function and the wallet's earn view. The
	// earn function's own state beside them (staking totals, the sales'
	// states, the settings loans were last checked with) has its own
	// partition.
	earnConfig = "EARNCFG"
	earnState  = "EARNSTATE"
)

// grants are the declarations. Every process that builds its ports with
// platform.NewAWS reads the pair catalogue (config); every function that
// submits engine commands reads the lease (engineLease); every one that
// pushes to users (apigw's PublishUser, DisconnectUser) queries gsi2 for
// the user's connections and forgets those that are gone (wsConn).
var grants = []Grant{
	{
		// GraphQL page texts: content.Load refreshes them at a cold start.
		Name:   "content",
		Reads:  []string{config},
		Writes: []string{"CONTENT", "CONTENT#"},
	},
	{
		// Accounts, sign-up and sign-in (internal/auth, its rate limits),
		// favourites, page views, API keys; market data and reference
		// prices read; a revoked session's connections closed. Identity
		// verification (its applicants, history and webhook replays under
		// KYC#), corporate verification and uploads' records (under
		// USER#), support tickets (TICKET#; a user's list on gsi1, the
		// operators' queue on gsi2); the cancellation check reads the
		// balances (BAL#), the transfers between the two steps (WALLET#)
		// and, on gsi1, the withdrawal and deposit histories, and the open
		// orders on gsi2.
		Name:  "profile",
		Reads: []string{"BAL#", config, marketData, refPrices, "WALLET#"},
		Writes: []string{"APIKEY#", "CHALLENGE#", "CODE#", "DEVICE#", "EMAIL#", "FAV#", "KYC#", "PAGEVIEW#", "PHONE#",
			"RESET#", "RL#", "RLF#", "SESSION#", "TICKET#", "USER#", wsConn},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// Wallet settings, address book and bank accounts, transfers (a
		// transfer into spot posts the other account's side in the ledger:
		// BAL#, POST#), deposit addresses, withdrawal submits (record,
		// workflow item, daily guard), verification codes; the history
		// lists on gsi1.
		Name: "wallet",
		// The earn view (get_earn_balance) reads each user's savings
		// (EARN#, EARNLOG#) and the products (EARNCFG).
		Reads: []string{config, "EARN#", earnConfig, "EARNLOG#", "EMAIL#", engineLease, "FAV#", "PHONE#", "SESSION#", refPrices},
		Writes: []string{"BAL#", "BANKIBAN#", "CODE#", "DEPADDR#", "DEPIDX", "DEPIDX#", "DEPOWNER#", futuresUser, "POST#",
			"RL#", "RLF#", "USER#", "WALLET#", "WD#", "WDGUARD#", "WF#", wsConn},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// Orders go to the engine, which writes them: the trade function
		// only reads (orders, client ids, fills, volumes, the last trade
		// price, the fee coin setting).
		Name: "trade",
		Reads: []string{config, engineLease, "SBOOKM#", "SCID#", "SESSION#", "SORD#", "STRD#", "SVOL#",
			"USER#", "WALLET#", refPrices},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// Perpetual futures (/fe-co-api): orders, fills, positions,
		// funding, trigger orders and prices the engine's projection
		// writes, read; order entry, leverage, margin and trigger commands
		// go to the engine; the users' futures settings (page
		// preferences, the account opened) are the function's own.
		Name: "futures",
		Reads: []string{"BAL#", "COMPRANK#", config, engineLease, "FFUND#", "FORD#", "FPOS#", "FPOSH#", "FPRICE#", "FTRDU#", "FTRIG#",
			"SESSION#", "USER#", marketData, refPrices},
		// The competitions are served beside the futures routes: joining
		// writes the participant and the competition's count.
		Writes:  []string{"COMP#", "COMPU#", futuresUser},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// The competitions' schedule (functions/competition): every
		// running competition's ranking, from the participants' futures
		// margin balance (their balances, positions and the marks) and
		// their spot↔futures transfers (the wallet's records); after the
		// end the prizes, engine commands (the engine writes the balances).
		Name:    "competition",
		Reads:   []string{"BAL#", config, engineLease, "FPOS#", "FPRICE#", futuresUser, "WALLET#", refPrices},
		Writes:  []string{"COMP#", "COMPRANK#", "COMPU#"},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// The earn function (functions/earn): savings, staking and the
		// launchpad. A user's positions, stakes, sale commitments and
		// pending operations (EARN#), finance records (EARNLOG#), a
		// sale's commitments (LPC#), the earn accounts' postings with the
		// treasury, the sales' accounts and the transit account (BAL#,
		// POST#); the operator's products read (EARNCFG), the staking
		// totals and the sales' states written (EARNSTATE); the due and
		// pending indexes on gsi2.
		// Crypto loans beside them (EARN#, their due index on gsi2, their
		// liquidation-price index on gsi1), checked at the reference
		// prices (refprice); a liquidation sells the collateral with a
		// market order of the liquidator, an engine command, reading its
		// client id, order, fee settings and volumes as the trade function
		// does (SCID#, SORD#, WALLET#, SVOL#). Subscriptions, stakes,
		// commitments, loans and every payout move spot balances by engine
		// commands (the engine writes those); sessions and accounts read
		// to sign calls in.
		Name: "earn",
		Reads: []string{config, earnConfig, engineLease, refPrices, "SCID#", "SESSION#", "SORD#", "SVOL#", "USER#",
			"WALLET#"},
		Writes:  []string{"BAL#", "EARN#", "EARNLOG#", earnState, "LPC#", "POST#"},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// The Binance-compatible REST API: API keys (last use, listen keys),
		// orders and balances read, deposit addresses, withdrawals by key.
		Name: "openapi",
		Reads: []string{"BAL#", config, engineLease, "SBOOKM#", "SCID#", "SORD#", "STRD#", "SVOL#", "WALLET#",
			marketData, refPrices},
		Writes: []string{"APIKEY#", "DEPADDR#", "DEPIDX", "DEPIDX#", "DEPOWNER#", "LISTENKEY#", "USER#",
			"WD#", "WDGUARD#", "WF#", wsConn},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// Connections and their subscriptions (the Binance stream channels'
		// registry among them), order entry as the trade function's.
		Name: "ws",
		Reads: []string{"APIKEY#", config, engineLease, "LISTENKEY#", "SBOOKM#", "SCID#", "SESSION#", "SORD#",
			"SVOL#", "USER#", "WALLET#", refPrices},
		Writes:  []string{wsStreamCh, wsConn},
		Indexes: []string{store.IndexGSI2},
	},
	{
		// The Binance-compatible WebSocket API: its connections, API keys'
		// last use, and the REST endpoints it mirrors (no withdrawals).
		Name: "wsapi",
		Reads: []string{"APIKEY#", "BAL#", config, engineLease, "SBOOKM#", "SCID#", "SORD#", "STRD#", "SVOL#",
			"WALLET#", marketData, refPrices},
		Writes:  []string{binanceWS, "USER#"},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// The change feed fan-out: users' connections on both APIs (gone
		// ones forgotten), listen keys and API keys checked, an order's
		// fills read for Binance's execution reports.
		Name:    "stream",
		Reads:   []string{"APIKEY#", config, "LISTENKEY#", "SORD#", "STRD#"},
		Writes:  []string{binanceWS, wsConn},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// The operators' function (functions/admin): identity
		// verification decisions (KYC#, the profile's status under USER#,
		// the lists on gsi1), corporate reviews (USER#, the queue on
		// gsi1), support answers and closes (TICKET#, the queue on gsi2;
		// the owner's contact under USER#), cancelled accounts (their
		// balances read, the list on gsi1, a reopening under USER#), and
		// P2P appeals and merchant applications (the order, its chat and
		// the ad, the escrow's release or return: BAL#, POST#; the appeal
		// queue on gsi2), futures competitions (COMP#, their ranks and
		// participants read), and the savings products (EARNCFG).
		Name:    "admin",
		Reads:   []string{"COMPRANK#", "COMPU#", config},
		Writes:  []string{"BAL#", "COMP#", earnConfig, "KYC#", "P2PAD#", "P2PORD#", "P2PUSER#", "POST#", "TICKET#", "USER#"},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// P2P trading (internal/p2p): ads, orders, chats and traders'
		// records (P2PAD#, P2PORD#, P2PUSER#; the ad lists on gsi1 and
		// gsi2, the appeal queue on gsi2), payment methods (P2PPAY#),
		// escrow postings on the OTC accounts (BAL#, POST#), the payment
		// deadline's workflow instance (WF#); sessions, nicknames,
		// verification, uploads and the fund password read (SESSION#,
		// USER#, WALLET#), reference rates for floating prices, and both
		// sides' connections for the order and chat pushes (wsConn).
		Name:    "p2p",
		Reads:   []string{config, refPrices, "SESSION#", "USER#", "WALLET#"},
		Writes:  []string{"BAL#", "P2PAD#", "P2PORD#", "P2PPAY#", "P2PUSER#", "POST#", "WF#", wsConn},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
	{
		// The P2P payment deadline's task (functions/p2ptimeout): an order
		// still unpaid is cancelled and its escrow returned, to the ad or
		// to the seller (P2PAD#, P2PORD#, P2PUSER#, BAL#, POST#), both
		// sides told (wsConn).
		Name:    "p2ptimeout",
		Reads:   []string{config, "USER#"},
		Writes:  []string{"BAL#", "P2PAD#", "P2PORD#", "P2PUSER#", "POST#", wsConn},
		Indexes: []string{store.IndexGSI2},
	},
	{
		// Withdrawal steps: the record, and the simulated rails' items.
		Name:    "workflow",
		Reads:   []string{config, engineLease},
		Writes:  []string{"BANKSIM#", "CHAINSIM#", "CHAINSIM_SEND#", "WD#", wsConn},
		Indexes: []string{store.IndexGSI2},
	},
	{
		// Marks workflow instances handed over; the sweep reads the due
		// index. It builds its store itself, without platform.NewAWS.
		Name:    "wfstart",
		Writes:  []string{"WF#"},
		Indexes: []string{store.IndexGSI1},
	},
	{
		// The engine task: the projection of balances, postings and orders
		// (projector, spot; futures, with each user's position mode), its lease, market data and reference prices,
		// resumed transfers (the wallet's records), the market channels'
		// subscribers and the Binance stream registry.
		Name:  EngineTask,
		Reads: []string{wsStreamCh, config},
		Writes: []string{"BAL#", engineLease, "ENGPROJ", "FFUND#", "FORD#", "FPOS#", "FPOSH#", "FPRICE#", "FTRDU#", "FTRIG#", futuresUser,
			"POST#", "SBOOKM#", "SCID#", "SORD#", "STRD#", "SVOL#", "WALLET#", wsConn, marketData, refPrices},
		Indexes: []string{store.IndexGSI1, store.IndexGSI2},
	},
}
