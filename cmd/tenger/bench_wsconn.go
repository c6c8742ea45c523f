package main

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// wsClient is one WebSocket connection of the load loop (RFC 6455, text
// frames, no extensions): the client half of what the server's hub speaks,
// written for the generator's CPU as orderConn is for HTTP. Frames are
// appended to one buffer and written with one call, so requests that are
// ready together leave in one packet; answers are read into one buffer
// that is reused. Pings are answered; a close frame ends the connection.
// Writes (the sender's frames, the reader's pongs) are serialised by wmu;
// messages are read by one goroutine.
type wsClient struct {
	conn    net.Conn
	br      *bufio.Reader
	timeout time.Duration

	wmu  sync.Mutex
	pong []byte

	msg []byte // the message being read
	// seed and cseed are the masking key streams of the sender's frames
	// and of the reader's control frames.
	seed, cseed uint64
}

// wsGUID is the RFC 6455 key suffix.
const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// wsAddr is the host:port of an http:// base, where its WebSockets are.
func wsAddr(base string) (host string, err error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" {
		return "", fmt.Errorf("bench: the target must be an http:// address, not %q", base)
	}
	host = u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "80")
	}
	return host, nil
}

// dialWSClient opens the WebSocket at path (with its query: /ws, or
// /ws-api/v3?returnRateLimits=false) on host and completes the opening
// handshake.
func dialWSClient(host, path string, timeout time.Duration) (*wsClient, error) {
	conn, err := net.DialTimeout("tcp", host, timeout)
	if err != nil {
		return nil, err
	}
	var key [16]byte
	_, _ = rand.Read(key[:])
	k := base64.StdEncoding.EncodeToString(key[:])
	req := "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: " + k + "\r\nSec-WebSocket-Version: 13\r\nexchange-client: bench\r\n\r\n"
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(conn, 64<<10)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("bench: %s handshake: %w", path, err)
	}
	resp.Body.Close()
	sum := sha1.Sum([]byte(k + wsGUID))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		return nil, fmt.Errorf("bench: %s handshake answered HTTP %d", path, resp.StatusCode)
	}
	_ = conn.SetDeadline(time.Time{})
	c := &wsClient{conn: conn, br: br, timeout: timeout}
	var seed [8]byte
	_, _ = rand.Read(seed[:])
	c.seed = binary.LittleEndian.Uint64(seed[:]) | 1
	c.cseed = bits.RotateLeft64(c.seed, 32) | 1
	return c, nil
}

// nextMask is the next frame's masking key from a stream (xorshift seeded
// from crypto/rand: the key only has to be unpredictable to
// intermediaries).
func nextMask(seed *uint64) [4]byte {
	x := *seed
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*seed = x
	var m [4]byte
	binary.LittleEndian.PutUint32(m[:], uint32(x>>16))
	return m
}

// appendText appends a masked text frame of the concatenated parts to b;
// only the sending goroutine calls it.
func (c *wsClient) appendText(b []byte, p ...[]byte) []byte {
	return appendFrame(b, &c.seed, 0x1, p...)
}

// appendFrame appends a masked client frame of opcode with payload p (its
// parts concatenated) to b, masked with the next key of seed.
func appendFrame(b []byte, seed *uint64, opcode byte, p ...[]byte) []byte {
	n := 0
	for _, s := range p {
		n += len(s)
	}
	b = append(b, 0x80|opcode)
	switch {
	case n < 126:
		b = append(b, 0x80|byte(n))
	case n <= 0xFFFF:
		b = append(b, 0x80|126, byte(n>>8), byte(n))
	default:
		b = append(b, 0x80|127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	m := nextMask(seed)
	b = append(b, m[:]...)
	j := 0
	for _, s := range p {
		for _, x := range s {
			b = append(b, x^m[j&3])
			j++
		}
	}
	return b
}

// write sends frames built with appendFrame in one call.
func (c *wsClient) write(frames []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.conn.SetWriteDeadline(time.Now().Add(c.timeout)); err != nil {
		return err
	}
	_, err := c.conn.Write(frames)
	return err
}

// sendText sends one text message (from the sending goroutine).
func (c *wsClient) sendText(p []byte) error { return c.write(c.appendText(nil, p)) }

// errWSClosed is a close frame from the server (its status and reason).
type errWSClosed struct {
	code   int
	reason string
}

func (e errWSClosed) Error() string {
	return "bench: WebSocket closed by the server: " + strconv.Itoa(e.code) + " " + e.reason
}

// read returns the next data message; it stays valid until the next read.
// idle bounds the wait for it (0: no bound).
func (c *wsClient) read(idle time.Duration) ([]byte, error) {
	if idle > 0 {
		if err := c.conn.SetReadDeadline(time.Now().Add(idle)); err != nil {
			return nil, err
		}
	}
	c.msg = c.msg[:0]
	var hdr [14]byte
	for {
		if _, err := io.ReadFull(c.br, hdr[:2]); err != nil {
			return nil, err
		}
		fin, opcode := hdr[0]&0x80 != 0, hdr[0]&0x0F
		masked := hdr[1]&0x80 != 0
		n := uint64(hdr[1] & 0x7F)
		switch n {
		case 126:
			if _, err := io.ReadFull(c.br, hdr[2:4]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(hdr[2:4]))
		case 127:
			if _, err := io.ReadFull(c.br, hdr[2:10]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(hdr[2:10])
		}
		if n > 16<<20 || bits.Len64(n) > 31 {
			return nil, errors.New("bench: WebSocket frame too long")
		}
		var mk [4]byte
		if masked {
			if _, err := io.ReadFull(c.br, mk[:]); err != nil {
				return nil, err
			}
		}
		if opcode >= 0x8 { // control frames: at most 125 bytes, never fragmented
			p := make([]byte, n)
			if _, err := io.ReadFull(c.br, p); err != nil {
				return nil, err
			}
			unmask(p, mk, masked)
			switch opcode {
			case 0x8:
				e := errWSClosed{code: 1005}
				if len(p) >= 2 {
					e.code, e.reason = int(binary.BigEndian.Uint16(p)), string(p[2:])
				}
				c.wmu.Lock()
				c.pong = appendFrame(c.pong[:0], &c.cseed, 0x8, p[:min(len(p), 2)])
				_, _ = c.conn.Write(c.pong)
				c.wmu.Unlock()
				return nil, e
			case 0x9:
				c.wmu.Lock()
				c.pong = appendFrame(c.pong[:0], &c.cseed, 0xA, p)
				_ = c.conn.SetWriteDeadline(time.Now().Add(c.timeout))
				_, err := c.conn.Write(c.pong)
				c.wmu.Unlock()
				if err != nil {
					return nil, err
				}
			}
			continue
		}
		start := len(c.msg)
		c.msg = append(c.msg, make([]byte, n)...)
		if _, err := io.ReadFull(c.br, c.msg[start:]); err != nil {
			return nil, err
		}
		unmask(c.msg[start:], mk, masked)
		if fin {
			return c.msg, nil
		}
	}
}

func unmask(p []byte, mk [4]byte, masked bool) {
	if !masked {
		return
	}
	for i := range p {
		p[i] ^= mk[i&3]
	}
}

func (c *wsClient) close() { _ = c.conn.Close() }
