// Package chainsim is the local blockchain simulator behind /dev/chain/*:
// per chain a block height, incoming transfers (deposits a test or a person
// makes to an exchange address) and outgoing transfers (the exchange's
// withdrawal sends). Everything is durable in the store, so a restart keeps
// the chain as it was.
//
// A transfer made now is included in the next block (height head+1), so it
// has 0 confirmations until a block is mined, then head-height+1.
// Deposits are picked up by the deposit watcher through OpenIncoming /
// CloseIncoming; withdrawal sends are idempotent per reference and, once a
// task token is registered with Watch, reported to the Completer when they
// reach the coin's confirmations.
//
// Storage layout:
//
//	head   pk "CHAINSIM#<chain>"    sk "HEAD"        height
//	tx     pk "CHAINSIM#<chain>"    sk "TX#<txid>"   coin, address, memo, amount, height, dir, ref, token
//	       gsi1pk "CHAINSIM_IN#<chain>" gsi1sk "<txid>"   incoming, until the watcher closes it
//	       gsi2pk "CHAINSIM_OUT"    gsi2sk "<chain>#<txid>" outgoing with a token, until notified
//	send   pk "CHAINSIM_SEND#<ref>" sk "SEND"        chain, txid   (one send per reference)
package chainsim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/store"
)

// Directions of a transfer.
const (
	In  = "in"
	Out = "out"
)

// ErrInput wraps every rejected input (unknown chain or coin, bad address or amount).
var ErrInput = errors.New("chainsim: invalid input")

// ErrNotFound: no such transaction.
var ErrNotFound = errors.New("chainsim: no such transaction")

// Completer receives the outcome of a watched withdrawal send (the workflow
// runner locally; Step Functions' SendTaskSuccess in AWS).
type Completer interface {
	Complete(ctx context.Context, token string, ok bool, detail string) error
}

// Transfer is one simulated on-chain transfer.
type Transfer struct {
	Chain   string          `json:"chain"`
	TxID    string          `json:"txid"`
	Vout    int             `json:"vout"`
	Coin    string          `json:"coin"`
	Address string          `json:"address"`
	Memo    string          `json:"memo,omitempty"`
	Amount  decimal.Decimal `json:"amount"`
	// Height is the block the transfer is in.
	Height int64  `json:"height"`
	Dir    string `json:"direction"`
	// Ref is the withdrawal a send belongs to.
	Ref string `json:"ref,omitempty"`
	At  int64  `json:"at"`
}

// Confirmations is how many blocks include the transfer at head.
func (t Transfer) Confirmations(head int64) int64 {
	if head < t.Height {
		return 0
	}
	return head - t.Height + 1
}

// Options configure the simulator.
type Options struct {
	Store store.Store
	Coins *coins.Catalogue
	Now   func() time.Time
	Log   zerolog.Logger
	// Completer is told when watched sends are confirmed (may be set later
	// with SetCompleter, as the runner is built after the simulator).
	Completer Completer
	// Poll is how often the background loop re-delivers confirmations
	// (default 1 s); Mine delivers at once.
	Poll time.Duration
}

// Sim is the simulator.
type Sim struct {
	o      Options
	mu     sync.RWMutex
	comp   Completer
	cancel context.CancelFunc
	done   chan struct{}
}

// New returns a simulator.
func New(o Options) *Sim {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	return &Sim{o: o, comp: o.Completer}
}

// SetCompleter sets who is told about confirmed sends.
func (s *Sim) SetCompleter(c Completer) {
	s.mu.Lock()
	s.comp = c
	s.mu.Unlock()
}

func (s *Sim) completer() Completer {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.comp
}

func chainPK(c string) string { return "CHAINSIM#" + c }

func txKey(c, txid string) store.Key { return store.Key{PK: chainPK(c), SK: "TX#" + txid} }

// chainOf checks that the coin moves on the named chain and returns both
// canonical names and the chain's settings.
func (s *Sim) chainOf(coin, chainName string) (coins.Coin, coins.ChainConfig, error) {
	c, ok := s.o.Coins.Coin(coin)
	if !ok {
		return coins.Coin{}, coins.ChainConfig{}, fmt.Errorf("%w: unknown coin %q", ErrInput, coin)
	}
	ch, ok := c.Chain(chainName)
	if !ok || ch.IsBank() {
		return coins.Coin{}, coins.ChainConfig{}, fmt.Errorf("%w: %s does not move on chain %q", ErrInput, c.Symbol, chainName)
	}
	return c, ch, nil
}

// knownChain accepts any chain name the catalogue uses.
func (s *Sim) knownChain(name string) (string, error) {
	for _, c := range s.o.Coins.List() {
		if ch, ok := c.Chain(name); ok && !ch.IsBank() {
			return ch.Name, nil
		}
	}
	return "", fmt.Errorf("%w: unknown chain %q", ErrInput, name)
}

// Head returns a chain's height (0 before the first block).
func (s *Sim) Head(ctx context.Context, chainName string) (int64, error) {
	it, err := s.o.Store.Get(ctx, store.Key{PK: chainPK(chainName), SK: "HEAD"})
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return it.Int("height"), nil
}

// DepositReq is a transfer to an exchange address.
type DepositReq struct {
	Coin, Chain, Address, Memo, Amount string
}

func newTxID(ch chain.Chain) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	if f, _ := ch.Family(); f == chain.FamilyEVM {
		return "0x" + hex.EncodeToString(b)
	}
	return hex.EncodeToString(b)
}

// Deposit records an incoming transfer in the next block and returns its txid.
func (s *Sim) Deposit(ctx context.Context, r DepositReq) (Transfer, error) {
	coin, cfg, err := s.chainOf(r.Coin, r.Chain)
	if err != nil {
		return Transfer{}, err
	}
	ch, _ := cfg.AddressChain()
	addr := strings.TrimSpace(r.Address)
	if err := chain.Validate(ch, addr); err != nil {
		return Transfer{}, fmt.Errorf("%w: address: %v", ErrInput, err)
	}
	if err := chain.ValidateMemo(ch, strings.TrimSpace(r.Memo)); err != nil {
		return Transfer{}, fmt.Errorf("%w: memo: %v", ErrInput, err)
	}
	amt, err := coins.ParseAmount(strings.TrimSpace(r.Amount), cfg.Precision)
	if err != nil {
		return Transfer{}, fmt.Errorf("%w: amount: %v", ErrInput, err)
	}
	head, err := s.Head(ctx, cfg.Name)
	if err != nil {
		return Transfer{}, err
	}
	t := Transfer{Chain: cfg.Name, TxID: newTxID(ch), Coin: coin.Symbol, Address: addr, Memo: strings.TrimSpace(r.Memo),
		Amount: amt, Height: head + 1, Dir: In, At: s.o.Now().UnixMilli()}
	it := txItem(t)
	it[store.AttrGSI1PK] = "CHAINSIM_IN#" + t.Chain
	it[store.AttrGSI1SK] = t.TxID
	if err := s.o.Store.Put(ctx, it, store.ItemNotExists()); err != nil {
		return Transfer{}, err
	}
	s.o.Log.Info().Str("chain", t.Chain).Str("txid", t.TxID).Str("coin", t.Coin).Str("amount", amt.String()).Msg("simulated deposit")
	return t, nil
}

func txItem(t Transfer) store.Item {
	k := txKey(t.Chain, t.TxID)
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "chain": t.Chain, "txid": t.TxID, "vout": t.Vout,
		"coin": t.Coin, "address": t.Address, "memo": t.Memo, "amount": t.Amount, "height": t.Height,
		"dir": t.Dir, "ref": t.Ref, "at": t.At}
}

func transferOf(it store.Item) Transfer {
	return Transfer{Chain: it.Str("chain"), TxID: it.Str("txid"), Vout: int(it.Int("vout")), Coin: it.Str("coin"),
		Address: it.Str("address"), Memo: it.Str("memo"), Amount: it.Dec("amount"), Height: it.Int("height"),
		Dir: it.Str("dir"), Ref: it.Str("ref"), At: it.Int("at")}
}

// Mine adds blocks to a chain and delivers the confirmations that became
// final. It returns the new height.
func (s *Sim) Mine(ctx context.Context, chainName string, blocks int) (int64, error) {
	name, err := s.knownChain(chainName)
	if err != nil {
		return 0, err
	}
	if blocks < 1 || blocks > 10000 {
		return 0, fmt.Errorf("%w: blocks must be 1..10000", ErrInput)
	}
	it, err := s.o.Store.Update(ctx, store.Key{PK: chainPK(name), SK: "HEAD"}, store.NewUpdate().AddInt("height", int64(blocks)), nil)
	if err != nil {
		return 0, err
	}
	if err := s.NotifyDue(ctx); err != nil {
		s.o.Log.Warn().Err(err).Msg("chainsim: delivering confirmations")
	}
	return it.Int("height"), nil
}

// Get reads one transfer.
func (s *Sim) Get(ctx context.Context, chainName, txid string) (Transfer, error) {
	it, err := s.o.Store.Get(ctx, txKey(chainName, txid))
	if errors.Is(err, store.ErrNotFound) {
		return Transfer{}, ErrNotFound
	}
	if err != nil {
		return Transfer{}, err
	}
	return transferOf(it), nil
}

// List returns a chain's transfers (newest last), for the dev tools.
func (s *Sim) List(ctx context.Context, chainName string, limit int) ([]Transfer, error) {
	page, err := s.o.Store.Query(ctx, store.Query{PK: chainPK(chainName), SK: store.SKPrefixed("TX#"), Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]Transfer, 0, len(page.Items))
	for _, it := range page.Items {
		out = append(out, transferOf(it))
	}
	return out, nil
}

// OpenIncoming lists the incoming transfers of a chain the watcher has not
// closed yet.
func (s *Sim) OpenIncoming(ctx context.Context, chainName string) ([]Transfer, error) {
	q := store.Query{Index: store.IndexGSI1, PK: "CHAINSIM_IN#" + chainName, Limit: 200}
	var out []Transfer
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			out = append(out, transferOf(it))
		}
		if page.Cursor == "" || len(out) >= 1000 {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// CloseIncoming tells the simulator the watcher is done with a transfer.
func (s *Sim) CloseIncoming(ctx context.Context, chainName, txid string) error {
	_, err := s.o.Store.Update(ctx, txKey(chainName, txid),
		store.NewUpdate().Remove(store.AttrGSI1PK).Remove(store.AttrGSI1SK), store.ItemExists())
	if errors.Is(err, store.ErrConditionFailed) {
		return ErrNotFound
	}
	return err
}

// Chains lists the chain names the simulator knows (every on-chain rail of
// the catalogue).
func (s *Sim) Chains() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range s.o.Coins.List() {
		for _, ch := range c.Chains {
			if !ch.IsBank() && !seen[ch.Name] {
				seen[ch.Name] = true
				out = append(out, ch.Name)
			}
		}
	}
	return out
}

// SendReq is a withdrawal send.
type SendReq struct {
	// Ref identifies the withdrawal: one send per Ref, ever.
	Ref                                string
	Coin, Chain, Address, Memo, Amount string
}

// Send broadcasts a withdrawal into the next block. Sending the same Ref
// again returns the first send's txid and sends nothing.
func (s *Sim) Send(ctx context.Context, r SendReq) (Transfer, error) {
	if r.Ref == "" {
		return Transfer{}, fmt.Errorf("%w: a send needs a reference", ErrInput)
	}
	marker := store.Key{PK: "CHAINSIM_SEND#" + r.Ref, SK: "SEND"}
	if it, err := s.o.Store.Get(ctx, marker); err == nil {
		return s.Get(ctx, it.Str("chain"), it.Str("txid"))
	} else if !errors.Is(err, store.ErrNotFound) {
		return Transfer{}, err
	}
	coin, cfg, err := s.chainOf(r.Coin, r.Chain)
	if err != nil {
		return Transfer{}, err
	}
	ch, _ := cfg.AddressChain()
	if err := chain.Validate(ch, r.Address); err != nil {
		return Transfer{}, fmt.Errorf("%w: address: %v", ErrInput, err)
	}
	amt, err := decimal.NewFromString(r.Amount)
	if err != nil || !amt.IsPositive() {
		return Transfer{}, fmt.Errorf("%w: amount %q", ErrInput, r.Amount)
	}
	head, err := s.Head(ctx, cfg.Name)
	if err != nil {
		return Transfer{}, err
	}
	t := Transfer{Chain: cfg.Name, TxID: newTxID(ch), Coin: coin.Symbol, Address: r.Address, Memo: r.Memo,
		Amount: amt, Height: head + 1, Dir: Out, Ref: r.Ref, At: s.o.Now().UnixMilli()}
	err = s.o.Store.Transact(ctx, []store.Op{
		store.PutOp(store.Item{store.AttrPK: marker.PK, store.AttrSK: marker.SK, "chain": t.Chain, "txid": t.TxID}, store.ItemNotExists()),
		store.PutOp(txItem(t), store.ItemNotExists()),
	})
	if errors.Is(err, store.ErrConditionFailed) {
		return s.Send(ctx, r) // a concurrent send of the same ref won
	}
	if err != nil {
		return Transfer{}, err
	}
	s.o.Log.Info().Str("chain", t.Chain).Str("txid", t.TxID).Str("ref", r.Ref).Msg("simulated withdrawal send")
	return t, nil
}

// Watch registers a task token for a send: once the send has the coin's
// confirmations the Completer gets Complete(token, true, txid). Watching
// again replaces the token; an already confirmed send is reported at once.
func (s *Sim) Watch(ctx context.Context, chainName, txid, token string) error {
	_, err := s.o.Store.Update(ctx, txKey(chainName, txid), store.NewUpdate().Set("token", token).
		Set(store.AttrGSI2PK, "CHAINSIM_OUT").Set(store.AttrGSI2SK, chainName+"#"+txid),
		store.And(store.ItemExists(), store.Eq("dir", Out)))
	if errors.Is(err, store.ErrConditionFailed) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	return s.NotifyDue(ctx)
}

// NotifyDue reports every watched send that has its confirmations, then
// stops watching it. A crash between the report and the stop reports again
// later, which Complete ignores.
func (s *Sim) NotifyDue(ctx context.Context) error {
	comp := s.completer()
	if comp == nil {
		return nil
	}
	q := store.Query{Index: store.IndexGSI2, PK: "CHAINSIM_OUT", Limit: 200}
	heads := map[string]int64{}
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			t := transferOf(it)
			head, ok := heads[t.Chain]
			if !ok {
				if head, err = s.Head(ctx, t.Chain); err != nil {
					return err
				}
				heads[t.Chain] = head
			}
			_, cfg, err := s.chainOf(t.Coin, t.Chain)
			if err != nil {
				return err
			}
			need := int64(max(cfg.Confirmations, 1))
			if t.Confirmations(head) < need {
				continue
			}
			if err := comp.Complete(ctx, it.Str("token"), true, t.TxID); err != nil {
				return err
			}
			if _, err := s.o.Store.Update(ctx, txKey(t.Chain, t.TxID),
				store.NewUpdate().Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK).Set("notified", true), store.ItemExists()); err != nil {
				return err
			}
		}
		if page.Cursor == "" {
			return nil
		}
		q.Cursor = page.Cursor
	}
}

// Start re-delivers confirmations in the background (after a restart, or
// when a Complete failed) until Stop.
func (s *Sim) Start(ctx context.Context) {
	s.mu.Lock()
	if s.cancel != nil {
		s.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	s.cancel, s.done = cancel, make(chan struct{})
	done := s.done
	s.mu.Unlock()
	go func() {
		defer close(done)
		t := time.NewTicker(s.o.Poll)
		defer t.Stop()
		for {
			if err := s.NotifyDue(ctx); err != nil && ctx.Err() == nil {
				s.o.Log.Warn().Err(err).Msg("chainsim: delivering confirmations")
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// Stop ends the background loop.
func (s *Sim) Stop() {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.cancel, s.done = nil, nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}
