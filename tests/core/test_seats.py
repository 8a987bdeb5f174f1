"""The seat arithmetic both games' kernels share: the next seat is `(i + 1) mod n` (S7, T6)."""

from sniff_twelve.core.seats import seat_after


def test_seat_after_is_the_table_order_for_every_seat_and_step():
    for n in range(1, 8):
        for seat in range(n):
            for steps in range(n + 1):
                assert seat_after(seat, steps, n) == (seat + steps) % n, (n, seat, steps)
