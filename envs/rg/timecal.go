package rg

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

func timeSpecs() []spec {
	return []spec{
		{"calendar_arithmetic", "weekday or date N days from a given day or date; exact; knob max_days [1,3650]",
			"Give a weekday name or a date as YYYY-MM-DD.", buildCalendar},
		{"time_arithmetic", "the clock time (24-hour HH:MM) some minutes after a given time; exact; knob max_minutes [1,10000]",
			"Give the time as HH:MM.", buildClock},
	}
}

var weekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

func buildCalendar(o *envs.Options) task.Generator {
	maxDays := o.Int("max_days", 100, 1, 3650)
	return func(r *rand.Rand) task.Problem {
		n := intIn(r, 1, maxDays)
		start := time.Date(1990+r.IntN(50), time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(365))
		sampleDay := sampleWord(weekdays)
		switch r.IntN(3) {
		case 0:
			d := r.IntN(7)
			ans := weekdays[(d+n)%7]
			return task.Problem{
				Question: fmt.Sprintf("Today is %s. What day of the week will it be in %d days?", weekdays[d], n),
				Answer:   ans, Score: exactText(ans), Sample: sampleDay,
			}
		case 1:
			ans := weekdays[start.Weekday()]
			return task.Problem{
				Question: fmt.Sprintf("What day of the week was %s?", start.Format("2006-01-02")),
				Answer:   ans, Score: exactText(ans), Sample: sampleDay,
			}
		default:
			end := start.AddDate(0, 0, n)
			ans := end.Format("2006-01-02")
			return task.Problem{
				Question: fmt.Sprintf("What is the date %d days after %s? Answer as YYYY-MM-DD.", n, start.Format("2006-01-02")),
				Answer:   ans,
				Score: func(a string) float64 {
					t, err := time.Parse("2006-01-02", strings.TrimSpace(a))
					if err == nil && t.Equal(end) {
						return 1
					}
					return 0
				},
				Sample: func(r *rand.Rand) string { return start.AddDate(0, 0, r.IntN(maxDays)+1).Format("2006-01-02") },
			}
		}
	}
}

var reClock = regexp.MustCompile(`^(\d{1,2}):(\d{2})$`)

// parseClock reads H:MM or HH:MM (24-hour) as minutes after midnight.
func parseClock(s string) (int, bool) {
	m := reClock.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	if h > 23 || mi > 59 {
		return 0, false
	}
	return h*60 + mi, true
}

func clock(min int) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

func buildClock(o *envs.Options) task.Generator {
	maxMin := o.Int("max_minutes", 300, 1, 10000)
	return func(r *rand.Rand) task.Problem {
		start := r.IntN(24 * 60)
		n := intIn(r, 1, maxMin)
		endMin := (start + n) % (24 * 60)
		ans := clock(endMin)
		return task.Problem{
			Question: fmt.Sprintf("A clock shows %s. What time (24-hour HH:MM) will it show %d minutes later?", clock(start), n),
			Answer:   ans,
			Score: func(a string) float64 {
				if v, ok := parseClock(a); ok && v == endMin {
					return 1
				}
				return 0
			},
			Sample: func(r *rand.Rand) string { return clock(r.IntN(24 * 60)) },
		}
	}
}
