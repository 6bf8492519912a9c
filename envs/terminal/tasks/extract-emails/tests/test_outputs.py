def test_emails():
    assert open("emails.txt").read().split() == [
        "ana.ruiz@example.org",
        "ben@example.org",
        "priya_k+news@example.net",
        "tomas@mail.example.com",
    ]
