//go:build linux

package sandbox

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the CPU times in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux build that gemgo runs on).
const clockTick = 10 * time.Millisecond

// treeCPU returns the CPU time used so far by root and every process
// below it: each process's own user and system time plus that of its
// children already reaped (which are no longer listed). Read just before a
// kill, it keeps the CPU time of a program whose reaper dies with it (in a
// PID namespace the program's parent is bwrap's pid 1, killed at once).
func treeCPU(root int) time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	type proc struct{ ppid, ticks int }
	procs := map[int]proc{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid ... utime(14) stime(15) cutime(16) cstime(17)
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ticks := 0
		for _, k := range f[11:15] {
			n, _ := strconv.Atoi(k)
			ticks += n
		}
		procs[pid] = proc{ppid, ticks}
	}
	children := map[int][]int{}
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	total := 0
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		total += procs[pid].ticks
		stack = append(stack, children[pid]...)
	}
	return time.Duration(total) * clockTick
}
