package wallet

import (
	"context"
	"errors"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/store"
)

// Address book limits.
const (
	// MaxAddresses bounds one user's address book.
	MaxAddresses = 200
	// MaxLabelLen is the most characters a label may have.
	MaxLabelLen = 30
)

func addressKey(uid, id string) store.Key { return store.Key{PK: walletPK(uid), SK: "ADDR#" + id} }

// SavedAddress is one address-book entry.
type SavedAddress struct {
	ID         string `json:"id"`
	CoinSymbol string `json:"coinSymbol"`
	// Chain is the chain name; TrustType repeats it (the spec's withdraw
	// calls name the chain trustType).
	Chain     string `json:"chain"`
	TrustType string `json:"trustType"`
	Address   string `json:"address"`
	Memo      string `json:"memo"`
	// AddressStr is address_memo (the form add_withdraw_address accepts).
	AddressStr   string `json:"addressStr"`
	ShortAddress string `json:"shortAddress" doc:"display form: first 28, ellipsis, last 6 when over 37 characters"`
	Label        string `json:"label"`
	Ctime        int64  `json:"ctime" doc:"Unix ms"`
}

// AddAddressInput is an add_withdraw_address call.
type AddAddressInput struct {
	Coin  string
	Chain string
	// Address may carry the memo after an underscore (address_memo).
	Address string
	// Memo, when given, wins over a memo inside Address.
	Memo  string
	Label string
	// Verify, when set, also turns the verify-address switch on (1) or off (0).
	Verify *bool
	Codes  Codes
}

// storedAddress is the form of an address that is saved and shown: EVM
// addresses in EIP-55 form (so a lower-case copy shows its checksum),
// others as the user typed them. It is not the compared form: see
// addressID and sameEntry.
func storedAddress(c chain.Chain, address string) string {
	fam, _ := c.Family()
	if fam == chain.FamilyEVM {
		if cs, err := chain.ChecksumEVMAddress(address); err == nil {
			return cs
		}
	}
	return address
}

// addressID is the id of an entry: a hash of the coin, the chain, the
// address in its canonical form (chain.Canonical: lower-case bech32 and
// EVM hex, the raw TON form) and the memo, so every spelling of one
// destination has one id and two concurrent adds of it cannot both win.
// Entries saved before ids used the canonical form have ids of the stored
// form; sameEntry finds them.
func addressID(ac chain.Chain, coin, ch, address, memo string) string {
	if can, err := chain.Canonical(ac, address); err == nil {
		address = can
	}
	return shortHash(coin, ch, address, memo)
}

// sameEntry reports whether a saved entry is the destination coin, chain,
// address and memo: the address compared in its canonical form, the memo
// as given.
func sameEntry(a SavedAddress, ac chain.Chain, coin, ch, address, memo string) bool {
	return a.CoinSymbol == coin && a.Chain == ch && a.Memo == memo && chain.SameAddress(ac, a.Address, address)
}

// resolveChain finds an on-chain rail of the coin (the Bank rail never
// takes a saved address).
func (s *Service) resolveChain(c coins.Coin, name string) (coins.ChainConfig, chain.Chain, error) {
	name = strings.TrimSpace(name)
	if name == "" && len(c.Chains) == 1 {
		name = c.Chains[0].Name
	}
	cfg, ok := c.Chain(name)
	if !ok {
		return coins.ChainConfig{}, "", apperr.New(apperr.CodeWalletChainInvalid, clip(name, 20))
	}
	ac, ok := cfg.AddressChain()
	if !ok {
		return coins.ChainConfig{}, "", apperr.New(apperr.CodeWalletChainInvalid, cfg.Name)
	}
	return cfg, ac, nil
}

// checkAddress validates the address and memo on the chain and returns their canonical form.
func checkAddress(ac chain.Chain, address, memo string) (string, string, error) {
	address = strings.TrimSpace(address)
	memo = strings.TrimSpace(memo)
	if address == "" {
		return "", "", apperr.Param("address: required")
	}
	if len(address) > 200 || len(memo) > 200 {
		return "", "", apperr.New(apperr.CodeWalletAddressInvalid, string(ac))
	}
	if memo == "" {
		address, memo = chain.ParseAddressMemo(ac, address)
	}
	if err := chain.Validate(ac, address); err != nil {
		return "", "", apperr.New(apperr.CodeWalletAddressInvalid, string(ac)).WithCause(err)
	}
	if err := chain.ValidateMemo(ac, memo); err != nil {
		return "", "", apperr.New(apperr.CodeWalletMemoInvalid).WithCause(err)
	}
	return storedAddress(ac, address), memo, nil
}

func checkLabel(label string) (string, error) {
	label = strings.TrimSpace(label)
	n := utf8.RuneCountInString(label)
	if !utf8.ValidString(label) || n < 1 || n > MaxLabelLen {
		return "", apperr.New(apperr.CodeWalletLabelInvalid)
	}
	for _, r := range label {
		if unicode.IsControl(r) {
			return "", apperr.New(apperr.CodeWalletLabelInvalid)
		}
	}
	return label, nil
}

// AddAddress saves a withdrawal address after checking its format and the
// codes the user's flags require (SMS operationType 11, Google).
func (s *Service) AddAddress(ctx context.Context, uid string, in AddAddressInput) (SavedAddress, error) {
	u, err := s.user(ctx, uid)
	if err != nil {
		return SavedAddress{}, err
	}
	c, err := s.coin(in.Coin)
	if err != nil {
		return SavedAddress{}, err
	}
	cfg, ac, err := s.resolveChain(c, in.Chain)
	if err != nil {
		return SavedAddress{}, err
	}
	address, memo, err := checkAddress(ac, in.Address, in.Memo)
	if err != nil {
		return SavedAddress{}, err
	}
	label, err := checkLabel(in.Label)
	if err != nil {
		return SavedAddress{}, err
	}
	id := addressID(ac, c.Symbol, cfg.Name, address, memo)
	if _, err := s.st.Get(ctx, addressKey(uid, id)); err == nil {
		return SavedAddress{}, apperr.New(apperr.CodeWalletAddressExists)
	} else if !errors.Is(err, store.ErrNotFound) {
		return SavedAddress{}, internal(err)
	}
	list, err := s.Addresses(ctx, uid, "")
	if err != nil {
		return SavedAddress{}, err
	}
	// An entry saved under an older id in another spelling.
	for _, a := range list {
		if sameEntry(a, ac, c.Symbol, cfg.Name, address, memo) {
			return SavedAddress{}, apperr.New(apperr.CodeWalletAddressExists)
		}
	}
	if len(list) >= MaxAddresses {
		return SavedAddress{}, apperr.New(apperr.CodeWalletAddressBookFull, MaxAddresses)
	}
	if err := s.checkFlagCodes(ctx, u, in.Codes, auth.OpSecurity); err != nil {
		return SavedAddress{}, err
	}
	now := s.now().UnixMilli()
	k := addressKey(uid, id)
	it := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, "id": id, "coin": c.Symbol, "chain": cfg.Name,
		"address": address, "memo": memo, "label": label, "ctime": now,
	}
	ops := []store.Op{store.PutOp(it, store.ItemNotExists())}
	if in.Verify != nil {
		upd := store.NewUpdate().Set(attrVerifyAddress, b2i(*in.Verify)).SetIfMissing("uid", uid)
		ops = append(ops, store.UpdateOp(settingsKey(uid), upd, nil))
	}
	if err := s.st.Transact(ctx, ops); err != nil {
		var tc *store.TxCanceledError
		if errors.As(err, &tc) && tc.Index == 0 {
			return SavedAddress{}, apperr.New(apperr.CodeWalletAddressExists)
		}
		return SavedAddress{}, internal(err)
	}
	return addressOf(it), nil
}

func addressOf(it store.Item) SavedAddress {
	a := SavedAddress{
		ID: it.Str("id"), CoinSymbol: it.Str("coin"), Chain: it.Str("chain"), TrustType: it.Str("chain"),
		Address: it.Str("address"), Memo: it.Str("memo"), Label: it.Str("label"), Ctime: it.Int("ctime"),
	}
	a.AddressStr = chain.JoinAddressMemo(a.Address, a.Memo)
	a.ShortAddress = chain.ShortAddress(a.Address)
	return a
}

// Addresses lists the user's saved addresses, newest first; coin filters
// by coin (any of its codes) when not empty.
func (s *Service) Addresses(ctx context.Context, uid, coin string) ([]SavedAddress, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	sym := ""
	if strings.TrimSpace(coin) != "" {
		c, err := s.coin(coin)
		if err != nil {
			return nil, err
		}
		sym = c.Symbol
	}
	items, err := s.queryAll(ctx, store.Query{PK: walletPK(uid), SK: store.SKPrefixed("ADDR#")})
	if err != nil {
		return nil, err
	}
	out := []SavedAddress{}
	for _, it := range items {
		if sym != "" && it.Str("coin") != sym {
			continue
		}
		out = append(out, addressOf(it))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ctime > out[j].Ctime })
	return out, nil
}

// DeleteAddress removes one of the user's saved addresses. Another user's
// id is simply not found (every key is under the caller's partition).
func (s *Service) DeleteAddress(ctx context.Context, uid, id string) error {
	if uid == "" {
		return apperr.New(apperr.CodeNotSignedIn)
	}
	id = strings.TrimSpace(id)
	if id == "" || len(id) > 64 || strings.ContainsAny(id, "#") {
		return apperr.New(apperr.CodeWalletAddressNotFound)
	}
	err := s.st.Delete(ctx, addressKey(uid, id), store.ItemExists())
	if errors.Is(err, store.ErrConditionFailed) {
		return apperr.New(apperr.CodeWalletAddressNotFound)
	}
	if err != nil {
		return internal(err)
	}
	return nil
}

// IsSavedAddress reports whether the address (and memo) is in the user's
// address book for the coin and chain. The address is compared in its
// canonical form (chain.Canonical), so any spelling of a saved address
// that its chain's format allows counts; the memo as given.
func (s *Service) IsSavedAddress(ctx context.Context, uid, coin, chainName, address, memo string) (bool, error) {
	if uid == "" {
		return false, apperr.New(apperr.CodeNotSignedIn)
	}
	c, ok := s.cat.Coin(coin)
	if !ok {
		return false, nil
	}
	cfg, ok := c.Chain(chainName)
	if !ok {
		return false, nil
	}
	ac, ok := cfg.AddressChain()
	if !ok {
		return false, nil
	}
	address, memo = strings.TrimSpace(address), strings.TrimSpace(memo)
	if memo == "" {
		address, memo = chain.ParseAddressMemo(ac, address)
	}
	id := addressID(ac, c.Symbol, cfg.Name, address, memo)
	_, err := s.st.Get(ctx, addressKey(uid, id))
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return false, internal(err)
	}
	// Entries saved before ids used the canonical form.
	list, err := s.Addresses(ctx, uid, c.Symbol)
	if err != nil {
		return false, err
	}
	for _, a := range list {
		if sameEntry(a, ac, c.Symbol, cfg.Name, address, memo) {
			return true, nil
		}
	}
	return false, nil
}

// VerifyAddressStatus is the verify-address switch.
type VerifyAddressStatus struct {
	Open int `json:"open" doc:"1 when withdrawals go only to saved addresses"`
}

// SetVerifyAddress turns the verify-address switch on or off, with the
// codes the user's flags require (SMS operationType 11, Google).
func (s *Service) SetVerifyAddress(ctx context.Context, uid string, on bool, c Codes) error {
	u, err := s.user(ctx, uid)
	if err != nil {
		return err
	}
	cur, err := s.VerifyAddressOn(ctx, uid)
	if err != nil {
		return err
	}
	if cur == on {
		return apperr.New(apperr.CodeWalletVerifyAddressSame)
	}
	if err := s.checkFlagCodes(ctx, u, c, auth.OpSecurity); err != nil {
		return err
	}
	return s.setSetting(ctx, uid, store.NewUpdate().Set(attrVerifyAddress, b2i(on)))
}

// queryAll reads every item of a query.
func (s *Service) queryAll(ctx context.Context, q store.Query) ([]store.Item, error) {
	if q.Limit == 0 {
		q.Limit = 500
	}
	var out []store.Item
	for {
		page, err := s.st.Query(ctx, q)
		if err != nil {
			return nil, internal(err)
		}
		out = append(out, page.Items...)
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}
