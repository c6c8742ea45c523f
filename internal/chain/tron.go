package chain

// tronVersion is the prefix byte of TRON mainnet addresses; with a 20-byte
// account and a 4-byte checksum it makes every address start with T.
const tronVersion = 0x41

// tronAddress encodes an uncompressed secp256k1 public key as a TRON
// address: base58check(0x41 || last 20 bytes of Keccak-256(X || Y)).
func tronAddress(uncompressedPubKey []byte) string {
	return encodeBase58Check(evmAccount(uncompressedPubKey), tronVersion, bitcoinAlphabet)
}

// validateTron accepts 34-character base58check addresses with the 0x41
// prefix and a valid double-SHA256 checksum.
func validateTron(addr string) error {
	if len(addr) != 34 {
		return errorf(ErrLength, "address has %d characters, want 34", len(addr))
	}
	if addr[0] != 'T' {
		return errorf(ErrPrefix, "TRON addresses start with T")
	}
	payload, version, err := decodeBase58Check(addr, bitcoinAlphabet)
	if err != nil {
		return err
	}
	if version != tronVersion {
		return errorf(ErrPrefix, "version byte 0x%02x, want 0x41", version)
	}
	if len(payload) != 20 {
		return errorf(ErrLength, "payload is %d bytes, want 20", len(payload))
	}
	return nil
}
