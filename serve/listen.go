package serve

import (
	"fmt"
	"net"
)

func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w (is another server using the port? choose another with -addr)", addr, err)
	}
	return ln, nil
}
