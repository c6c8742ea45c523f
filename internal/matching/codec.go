package matching

import (
	"encoding/binary"
	"errors"
)

// CommandSize is the size of an encoded command.
const CommandSize = 72

// codecVersion is the first byte of every encoded command, so that the
// journal format can evolve.
const codecVersion = 1

// ErrBadCommand is returned by DecodeCommand for bytes that are not a
// canonical command encoding.
var ErrBadCommand = errors.New("matching: bad command encoding")

// EncodeCommand writes c into dst (at least CommandSize bytes) in a fixed
// little-endian layout:
//
//	0 version  1 kind  2 side  3 type  4 tif  5 stp  6..7 zero
//	8 symbol (u32)  12..15 zero  16 seq  24 order id  32 user id
//	40 price  48 qty  56 quote  64 stop price
func EncodeCommand(dst []byte, c *Command) {
	_ = dst[CommandSize-1]
	le := binary.LittleEndian
	dst[0] = codecVersion
	dst[1] = byte(c.Kind)
	dst[2] = byte(c.Side)
	dst[3] = byte(c.Type)
	dst[4] = byte(c.TIF)
	dst[5] = byte(c.STP)
	dst[6], dst[7] = 0, 0
	le.PutUint32(dst[8:], c.Symbol)
	le.PutUint32(dst[12:], 0)
	le.PutUint64(dst[16:], c.Seq)
	le.PutUint64(dst[24:], c.OrderID)
	le.PutUint64(dst[32:], c.UserID)
	le.PutUint64(dst[40:], uint64(c.Price))
	le.PutUint64(dst[48:], uint64(c.Qty))
	le.PutUint64(dst[56:], uint64(c.Quote))
	le.PutUint64(dst[64:], uint64(c.StopPrice))
}

// DecodeCommand parses an encoded command. It checks the structure (size,
// version, zero padding, known enum values) but not the semantics: run
// Command.Validate (or let the book do it) for those.
func DecodeCommand(src []byte, c *Command) error {
	if len(src) != CommandSize || src[0] != codecVersion || src[6] != 0 || src[7] != 0 {
		return ErrBadCommand
	}
	le := binary.LittleEndian
	if le.Uint32(src[12:]) != 0 {
		return ErrBadCommand
	}
	kind, side, typ, tif, stp := CommandKind(src[1]), Side(src[2]), OrderType(src[3]), TimeInForce(src[4]), STPMode(src[5])
	if kind < CmdPlace || kind > CmdAmend || side > Sell || typ > Market || tif > PostOnly || stp > STPDecrement {
		return ErrBadCommand
	}
	*c = Command{
		Kind: kind, Side: side, Type: typ, TIF: tif, STP: stp,
		Symbol:    le.Uint32(src[8:]),
		Seq:       le.Uint64(src[16:]),
		OrderID:   le.Uint64(src[24:]),
		UserID:    le.Uint64(src[32:]),
		Price:     int64(le.Uint64(src[40:])),
		Qty:       int64(le.Uint64(src[48:])),
		Quote:     int64(le.Uint64(src[56:])),
		StopPrice: int64(le.Uint64(src[64:])),
	}
	return nil
}
