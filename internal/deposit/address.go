package deposit

import (
	"context"
	"errors"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/store"
)

// Direction selects which open flag Resolve checks.
type Direction int

// Directions.
const (
	DirDeposit Direction = iota
	DirWithdraw
)

// Resolve finds the coin and chain a call names. symbol is a coin code
// (BTC, MNT, MONT) or a coin joined to a chain ("USDT_TRC20", "USDT-TRC20",
// "USDTTRC20"), as the deposit modal sends "coin and chain"; chainName, when
// given, wins. Without a chain the coin's first chain open in that direction
// is chosen. A closed coin or chain is CodeDepositClosed/CodeWithdrawClosed.
func Resolve(cat *coins.Catalogue, symbol, chainName string, dir Direction) (coins.Coin, coins.ChainConfig, error) {
	symbol = strings.ToUpper(strings.TrimSpace(symbol))
	chainName = strings.TrimSpace(chainName)
	coin, ok := cat.Coin(symbol)
	if !ok && chainName == "" {
		for _, sep := range []string{"_", "-", " ", "/"} {
			if a, b, cut := strings.Cut(symbol, sep); cut {
				if c, found := cat.Coin(a); found {
					coin, ok, chainName = c, true, b
					break
				}
			}
		}
		if !ok {
			// "USDTTRC20": the longest coin code that prefixes the symbol.
			for _, c := range cat.List() {
				for _, ch := range c.Chains {
					for _, code := range []string{c.Symbol, c.DepositCode, c.WithdrawCode} {
						if code != "" && symbol == code+strings.ToUpper(ch.Name) {
							coin, ok, chainName = c, true, ch.Name
						}
					}
				}
			}
		}
	}
	if !ok {
		return coins.Coin{}, coins.ChainConfig{}, apperr.New(apperr.CodeCoinUnknown)
	}
	open := func(ch coins.ChainConfig) bool {
		if dir == DirWithdraw {
			return ch.WithdrawOpen
		}
		return ch.DepositOpen
	}
	closed := apperr.CodeDepositClosed
	if dir == DirWithdraw {
		closed = apperr.CodeWithdrawClosed
	}
	if chainName == "" {
		for _, ch := range coin.Chains {
			if open(ch) {
				return coin, ch, nil
			}
		}
		return coins.Coin{}, coins.ChainConfig{}, apperr.New(closed)
	}
	ch, ok := coin.Chain(chainName)
	if !ok {
		return coins.Coin{}, coins.ChainConfig{}, apperr.New(apperr.CodeChainUnknown)
	}
	if !open(ch) {
		return coins.Coin{}, coins.ChainConfig{}, apperr.New(closed)
	}
	return coin, ch, nil
}

// Address is the get_charge_address answer.
type Address struct {
	Coin  string `json:"coin"`
	Chain string `json:"chain"`
	// AddressLong is the full address (the modal's addressLong).
	AddressLong string `json:"addressLong"`
	// AddressStr is address_memo on memo chains (the wallet area's form).
	AddressStr   string `json:"addressStr"`
	Memo         string `json:"memo"`
	ShortAddress string `json:"shortAddress" doc:"first 28 characters, ellipsis, last 6 when over 37 characters"`
	// AddressQRCode is a PNG data URL of the address.
	AddressQRCode string `json:"addressQRCode"`
	TagType       int    `json:"tagType" doc:"1 when the memo must be sent with the deposit"`
	// Bank is set for the fiat (MNT): the fixed bank transfer block.
	Bank *BankBlock `json:"bank,omitempty"`
}

// BankBlock is the deposit modal's bank transfer block for one user.
type BankBlock struct {
	BankName    string `json:"bankName"`
	BankNameEN  string `json:"bankNameEn"`
	AccountNo   string `json:"accountNo"`
	Recipient   string `json:"recipient"`
	RecipientEN string `json:"recipientEn"`
	// TransactionValue is what the user writes in the transfer's
	// description: their user id (the reference the bank credit matches).
	TransactionValue string `json:"transactionValue"`
}

// BankBlockFor returns the bank block of a user.
func (s *Service) BankBlockFor(uid string) BankBlock {
	b := s.o.Bank
	return BankBlock{BankName: b.BankName, BankNameEN: b.BankNameEN, AccountNo: b.AccountNo, Recipient: b.Recipient,
		RecipientEN: b.RecipientEN, TransactionValue: uid}
}

// ChargeAddress returns the user's deposit address for a coin and chain,
// allocating the user's derivation index on first use.
func (s *Service) ChargeAddress(ctx context.Context, uid, symbol, chainName string) (Address, error) {
	if uid == "" {
		return Address{}, apperr.New(apperr.CodeNotSignedIn)
	}
	coin, cfg, err := Resolve(s.o.Coins, symbol, chainName, DirDeposit)
	if err != nil {
		return Address{}, err
	}
	if cfg.IsBank() {
		b := s.BankBlockFor(uid)
		return Address{Coin: coin.Symbol, Chain: cfg.Name, Bank: &b}, nil
	}
	ac, ok := cfg.AddressChain()
	if !ok || s.o.Deriver == nil {
		return Address{}, apperr.New(apperr.CodeDepositAddressUnavailable)
	}
	idx, err := s.userIndex(ctx, uid)
	if err != nil {
		return Address{}, err
	}
	a, err := s.o.Deriver.DepositAddress(ac, idx)
	if err != nil {
		return Address{}, apperr.New(apperr.CodeDepositAddressUnavailable).WithCause(err)
	}
	qr, err := chain.QRDataURL(a.Address)
	if err != nil {
		return Address{}, internal(err)
	}
	return Address{Coin: coin.Symbol, Chain: cfg.Name, AddressLong: a.Address, AddressStr: chain.JoinAddressMemo(a.Address, a.Memo),
		Memo: a.Memo, ShortAddress: chain.ShortAddress(a.Address), AddressQRCode: qr, TagType: cfg.TagType}, nil
}

func userIndexKey(uid string) store.Key { return store.Key{PK: "DEPIDX#" + uid, SK: "IDX"} }

func ownerKey(idx uint32) store.Key {
	return store.Key{PK: "DEPOWNER#" + itoa(int64(idx)), SK: "O"}
}

// addrKey is the reverse-lookup key of a deposit address: its address
// family and its canonical form (chain.Canonical), so every spelling of the
// address the chain's format allows (upper-case bech32, any EVM letter
// case) finds the same user. The keys written before chain.Canonical
// existed (the derived address, lower-cased for EVM) are already in that
// form: derived bech32 is lower case and TRON is kept as is.
func addrKey(c chain.Chain, address string) (store.Key, error) {
	fam, err := c.Family()
	if err != nil {
		return store.Key{}, err
	}
	can, err := chain.Canonical(c, address)
	if err != nil {
		return store.Key{}, err
	}
	return store.Key{PK: "DEPADDR#" + string(fam) + "#" + can, SK: "A"}, nil
}

// userIndex returns the user's derivation index, allocating it once: a
// sequence number, then one transaction that stores the index under the
// user (only if none exists yet), the index's owner and the reverse lookup
// of every address family's address, so the watcher can always map an
// address back to its user.
func (s *Service) userIndex(ctx context.Context, uid string) (uint32, error) {
	for try := 0; try < 5; try++ {
		it, err := s.o.Store.Get(ctx, userIndexKey(uid))
		if err == nil {
			return uint32(it.Int("index")), nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return 0, internal(err)
		}
		seq, err := s.o.Store.Update(ctx, store.Key{PK: "DEPIDX", SK: "SEQ"}, store.NewUpdate().AddInt("n", 1), nil)
		if err != nil {
			return 0, internal(err)
		}
		n := seq.Int("n") - 1
		if n < 0 || n > int64(chain.MaxMemoIndex) {
			return 0, apperr.New(apperr.CodeDepositAddressUnavailable)
		}
		idx := uint32(n)
		ops := []store.Op{
			store.PutOp(store.Item{store.AttrPK: userIndexKey(uid).PK, store.AttrSK: "IDX", "index": n, "uid": uid}, store.ItemNotExists()),
			store.PutOp(store.Item{store.AttrPK: ownerKey(idx).PK, store.AttrSK: "O", "uid": uid, "index": n}, store.ItemNotExists()),
		}
		if s.o.Deriver != nil {
			for _, c := range []chain.Chain{chain.BTC, chain.ETH, chain.TRX} {
				a, err := s.o.Deriver.DepositAddress(c, idx)
				if err != nil {
					return 0, apperr.New(apperr.CodeDepositAddressUnavailable).WithCause(err)
				}
				k, err := addrKey(c, a.Address)
				if err != nil {
					return 0, apperr.New(apperr.CodeDepositAddressUnavailable).WithCause(err)
				}
				ops = append(ops, store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": uid, "index": n}, nil))
			}
		}
		err = s.o.Store.Transact(ctx, ops)
		if err == nil {
			return idx, nil
		}
		if !errors.Is(err, store.ErrConditionFailed) {
			return 0, internal(err)
		}
		// Another request allocated the user's index first: read it.
	}
	return 0, apperr.New(apperr.CodeDepositAddressUnavailable)
}

// OwnerOf maps a deposit destination back to its user ("" when it names
// no user of the exchange). Addresses are compared in their canonical form
// (chain.Canonical); memos as given.
func (s *Service) OwnerOf(ctx context.Context, chainName, address, memo string) (string, error) {
	ac, err := chain.Parse(chainName)
	if err != nil {
		return "", nil
	}
	var k store.Key
	if ac.IsMemoChain() {
		idx, err := chain.MemoIndex(ac, memo)
		if err != nil {
			return "", nil
		}
		if s.o.Deriver != nil {
			// The memo counts only on the exchange's own shared address, in
			// any spelling of it (a TON user-friendly or raw form).
			if a, err := s.o.Deriver.DepositAddress(ac, idx); err != nil || !chain.SameAddress(ac, a.Address, strings.TrimSpace(address)) {
				return "", nil
			}
		}
		k = ownerKey(idx)
	} else if k, err = addrKey(ac, strings.TrimSpace(address)); err != nil {
		// Not a valid address of the chain: no user's deposit address.
		return "", nil
	}
	it, err := s.o.Store.Get(ctx, k)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return it.Str("uid"), nil
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
